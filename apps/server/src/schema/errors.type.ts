import {
  ConflictError,
  CycleError,
  type DomainError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  VersionConflictError,
} from '../commands/domain-errors.ts';
import { builder } from './builder.ts';

/** Every typed error: a message for people and a stable code for programs. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code'),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ entity: t.exposeString('entity'), id: t.exposeID('id') }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ field: t.exposeString('field'), reason: t.exposeString('reason') }),
});

builder.objectType(CycleError, {
  name: 'CycleError',
  description: 'The dependency would close a cycle. `path` starts and ends at the dependent node.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    path: t.exposeIDList('path'),
    questions: t.exposeStringList('questions'),
  }),
});

builder.objectType(VersionConflictError, {
  name: 'VersionConflictError',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    entity: t.exposeString('entity'),
    id: t.exposeID('id'),
    currentVersion: t.exposeInt('currentVersion'),
    expectedVersion: t.exposeInt('expectedVersion'),
  }),
});

builder.objectType(ForbiddenError, {
  name: 'ForbiddenError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ entity: t.exposeString('entity'), id: t.exposeID('id') }),
});

builder.objectType(ConflictError, { name: 'ConflictError', interfaces: [ErrorInterface] });

/**
 * The errors any field touching one map can return: an input that fails validation, an unknown id, a map of
 * someone else. Fields add what their command can throw besides (each mutation file lists its own).
 */
export const ACCESS_ERRORS = [NotFoundError, ForbiddenError, ValidationError];
