import { Command, INTERRUPT, isInterrupted, MemorySaver } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { KnowledgePort } from '../../ports/knowledge-port.ts';
import type { ModelPort } from '../../ports/model-port.ts';
import { InMemoryStore } from '../../testing/in-memory-store.ts';
import { RecordingEvents } from '../../testing/recording-events.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';
import { createProcessNodeGraph } from './graph.ts';

/** A map with a root question and two children, the second depending on the first. */
export async function cafeMap(language: 'en' | 'zh' = 'en') {
  const store = new InMemoryStore();
  const map = store.addMap({ problem: 'Open a second café?', language });
  const root = await store.createNode({
    mapId: map.id,
    parentId: null,
    question: 'Open a second café?',
    goal: 'decide by June',
  });
  return { store, map, root };
}

/** A compiled process-node graph over the given store and model, with recorded events. */
export function processGraph(
  store: InMemoryStore,
  model: ModelPort | ConstructorParameters<typeof ScriptedModel>[0],
  extra: { knowledge?: KnowledgePort; checkpointer?: BaseCheckpointSaver; maxQuestions?: number } = {},
) {
  const events = new RecordingEvents();
  const port = 'structured' in model ? (model as ModelPort) : new ScriptedModel(model);
  const graph = createProcessNodeGraph(
    { model: port, store, events, knowledge: extra.knowledge, maxQuestions: extra.maxQuestions },
    { checkpointer: extra.checkpointer ?? new MemorySaver() },
  );
  return { graph, events, model: port };
}

/** The question a paused run waits on; throws when it did not pause. */
export function pendingQuestion(result: unknown): { kind: string; question: string; context: Record<string, unknown> } {
  if (!isInterrupted(result)) throw new Error('expected the run to wait for the person');
  return result[INTERRUPT][0]!.value as never;
}

/** A `Command` that resumes with `reply`. */
export const reply = (value: unknown) => new Command<unknown, Record<string, never>, never>({ resume: value });

/** Canned model answers. */
export const answers = {
  intent: (intent: string) => ({ intent, reason: `because ${intent}`, confidence: 0.8 }),
  strategy: {
    strategy: 'SEQUENTIAL',
    factors: [{ factor: 'complexity', assessment: 'high' }],
    reason: 'steps build on each other',
  },
  proposal: {
    rationale: 'market first',
    subQuestions: [
      { key: 'q1', question: 'How big is the market?', goal: 'size it', dependsOn: [] },
      { key: 'q2', question: 'Which site?', goal: 'pick one', dependsOn: ['q1'] },
    ],
  },
  draft: (conclusion: string) => ({ kind: 'DECISION', conclusion, keyPoints: ['x'], confidence: 0.7 }),
  /** A tool choice: `tool` with `args`, or no tool. */
  tool: (tool: string | null, args: Record<string, unknown> = {}) => ({ tool, arguments: args, why: `why ${tool}` }),
};
