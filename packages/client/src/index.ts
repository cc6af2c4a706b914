export * from './agent-operations.ts';
export {
  type AnyDocument,
  type ApiErrorResult,
  isApiError,
  type RootFieldOf,
  rootField,
  type SuccessOf,
  type VariablesArgs,
} from './api-result.ts';
export * from './consultation-operations.ts';
export { createThinkingMapClient, type ThinkingMapClient, type ThinkingMapClientOptions } from './create-client.ts';
export * from './critic-operations.ts';
export * from './dashboard-operations.ts';
export * from './divergent-operations.ts';
export * from './events.ts';
export * from './fragments.ts';
export {
  type FragmentOf,
  graphql,
  type ResultOf,
  type SchemaEnum,
  type TadaDocumentNode,
  type VariablesOf,
} from './graphql.ts';
export * from './map-mutations.ts';
export * from './queries.ts';
export * from './token-operations.ts';
export * from './watch-operations.ts';
