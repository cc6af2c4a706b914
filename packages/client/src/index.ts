export { createThinkingMapClient, type ThinkingMapClient, type ThinkingMapClientOptions } from './create-client.ts';
export { ERROR_FIELDS, EVENT_FIELDS, NODE_FIELDS, WORKSPACE_MAP_FIELDS, WORKSPACE_NODE_FIELDS } from './fragments.ts';
export * from './operations.ts';
