export {
  type HttpKnowledgeServer,
  type HttpKnowledgeServerOptions,
  type ReceivedRequest,
  startHttpKnowledgeServer,
} from './http-knowledge-server.ts';
export { InMemoryCheckpointStore } from './in-memory-checkpoint-store.ts';
export { InMemoryStore } from './in-memory-store.ts';
export {
  type OpenAiServer,
  type OpenAiServerOptions,
  type RecordedRequest,
  type ScriptedReply,
  startOpenAiServer,
} from './openai-server.ts';
export { RecordingEvents } from './recording-events.ts';
export { ScriptedModel } from './scripted-model.ts';
