export { type ControlledAnswer, type ControlledCall, ControlledModel } from './controlled-model.ts';
export { criticChange, criticFinding } from './critic-answers.ts';
export {
  type HttpKnowledgeServer,
  type HttpKnowledgeServerOptions,
  type ReceivedRequest,
  startHttpKnowledgeServer,
} from './http-knowledge-server.ts';
export { InMemoryCheckpointStore } from './in-memory-checkpoint-store.ts';
export { InMemoryConsultationStore } from './in-memory-consultation-store.ts';
export { criticStore, InMemoryCriticStore } from './in-memory-critic-store.ts';
export { InMemoryStore } from './in-memory-store.ts';
export {
  type OpenAiServer,
  type OpenAiServerOptions,
  REFUSE_ALL,
  type RecordedRequest,
  type Refusals,
  refusalOf,
  type ScriptedReply,
  schemaNameOf,
  startOpenAiServer,
} from './openai-server.ts';
export { RecordingEvents } from './recording-events.ts';
export { ScriptedModel } from './scripted-model.ts';
