import type { GraphQLError } from 'graphql';
import type { Access } from '../commands/access.ts';

/**
 * Who a request acts as, as the HTTP and WebSocket handlers need it (the auth system implements it, see
 * app-identity.ts): handlers take it as a parameter, so http/ depends on no system's internals.
 */
export interface RequestIdentity {
  /**
   * The access of an Authorization header's value (or a graphql-ws connection parameter): at once when it is known
   * without waiting (a token in the token cache), else a promise. Throws or rejects when refused.
   */
  access(authorization: unknown): Access | Promise<Access>;
  /** The refusal `error` as GraphQL answers it (401 or 403 with its code), or null when it is no refusal. */
  refusal(error: unknown): GraphQLError | null;
  /** The error an operation started with `access` gets once its token has ended (expired); null while it holds. */
  ended(access: Access): GraphQLError | null;
}
