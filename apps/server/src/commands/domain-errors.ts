/** Stable error codes carried by every domain error and by GraphQL error `extensions.code`. */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'VALIDATION'
  | 'CYCLE'
  | 'VERSION_CONFLICT'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'CONFLICT';

/** Base of every error a person can be shown. Never carries a stack trace across the API. */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

/** The entity does not exist (or the id is well-formed but unknown). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND' as const;
  constructor(
    readonly entity: string,
    readonly id: string,
  ) {
    super(`${entity} ${id} was not found`);
  }
}

/** An input field is invalid; nothing was changed. */
export class ValidationError extends DomainError {
  readonly code = 'VALIDATION' as const;
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** Adding the dependency would close a cycle; `path` lists node ids from the dependent back to itself. */
export class CycleError extends DomainError {
  readonly code = 'CYCLE' as const;
  constructor(
    readonly path: string[],
    readonly questions: string[],
  ) {
    super(`this dependency would close a cycle: ${questions.join(' → ')}`);
  }
}

/** The change was based on a stale version; `currentVersion` is what the server holds now. */
export class VersionConflictError extends DomainError {
  readonly code = 'VERSION_CONFLICT' as const;
  constructor(
    readonly entity: string,
    readonly id: string,
    readonly currentVersion: number,
    readonly expectedVersion: number,
  ) {
    super(`${entity} ${id} is at version ${currentVersion}, the change was based on version ${expectedVersion}`);
  }
}

/** The viewer may not see or change this (another person's map, or any change with a read-only token). */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  constructor(
    readonly entity: string,
    readonly id: string,
    message = `you do not have access to ${entity} ${id}`,
  ) {
    super(message);
  }
}

/** The request carried no valid identity. */
export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED' as const;
  constructor(message = 'a valid bearer token is required') {
    super(message);
  }
}

/** The change conflicts with the current state (for example a second root). */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT' as const;
}
