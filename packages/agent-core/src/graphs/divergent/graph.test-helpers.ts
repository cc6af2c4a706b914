import { Command, INTERRUPT, isInterrupted, MemorySaver } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { DivergentRole, Language } from '../../domain/enums.ts';
import type {
  DivergentSkillName,
  DivergentSkills,
  SkillRequest,
  SkillResult,
} from '../../ports/divergent-skills-port.ts';
import type { ChatRequest, ChatResult, StructuredRequest, StructuredResult } from '../../ports/model-port.ts';
import { InMemoryStore } from '../../testing/in-memory-store.ts';
import { RecordingEvents } from '../../testing/recording-events.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';
import { createDivergentGraph } from './graph.ts';
import type { PlannedTask } from './schemas.ts';

/** A {@link ScriptedModel} that also keeps every request, so tests can read the prompts sent. */
export class PromptRecordingModel extends ScriptedModel {
  readonly requests: ChatRequest[] = [];
  override async chat(request: ChatRequest): Promise<ChatResult> {
    this.requests.push(request);
    return super.chat(request);
  }
  override async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    this.requests.push(request);
    return super.structured(request);
  }
}

/** What a scripted skill does for a task name: answer this text, or fail with this error. */
export type SkillScript = Record<string, string | Error | ((r: SkillRequest) => Promise<SkillResult>)>;

/** Skills answering by task name (any name not scripted answers `result of <name>`), counting runs per task. */
export class ScriptedSkills implements DivergentSkills {
  readonly runs: string[] = [];
  constructor(
    private readonly script: SkillScript = {},
    private readonly offered: DivergentSkillName[] = ['commonQnA', 'generateDoc', 'codeArtifacts'],
  ) {}
  available() {
    return this.offered;
  }
  unavailableReason(skill: DivergentSkillName) {
    return this.offered.includes(skill) ? null : `${skill} is not configured`;
  }
  async run(request: SkillRequest): Promise<SkillResult> {
    this.runs.push(request.name);
    const scripted = this.script[request.name];
    if (scripted instanceof Error) throw scripted;
    if (typeof scripted === 'function') return scripted(request);
    const text = scripted ?? `result of ${request.name}`;
    request.onToken?.(text);
    return { text, sources: [] };
  }
}

/** A planned task with defaults. */
export const task = (name: string, priority = 3, skill: DivergentSkillName = 'commonQnA'): PlannedTask => ({
  name,
  query: `find out ${name}`,
  skill,
  priority,
});

/** A plan answer of the model. */
export const plan = (...tasks: PlannedTask[]) => ({ rationale: 'close the gaps', tasks });

/** An evaluation answer scoring every dimension `score` (so the overall is `score`). */
export const scored = (score: number) => ({
  completeness: { score, reason: `completeness ${score}` },
  intentMatch: { score, reason: `intent ${score}` },
  quality: { score, reason: `quality ${score}` },
});

/** A map whose root asks a question, in `language`. */
export async function divergentMap(language: Language = 'en') {
  const store = new InMemoryStore();
  const question = language === 'zh' ? '第二家咖啡店开在哪里？' : 'Where should the second café open?';
  const map = store.addMap({ problem: question, language });
  const root = await store.createNode({
    mapId: map.id,
    parentId: null,
    question,
    goal: language === 'zh' ? '六月前决定' : 'decide by June',
  });
  return { store, map, root };
}

/** A compiled divergent graph over the store, a prompt-recording scripted model and scripted skills. */
export function divergentGraph(
  store: InMemoryStore,
  answers: ConstructorParameters<typeof ScriptedModel>[0],
  extra: { skills?: DivergentSkills; checkpointer?: BaseCheckpointSaver } = {},
) {
  const events = new RecordingEvents();
  const model = new PromptRecordingModel(answers);
  const skills = extra.skills ?? new ScriptedSkills();
  const graph = createDivergentGraph(
    { model, store, events, skills },
    { checkpointer: extra.checkpointer ?? new MemorySaver() },
  );
  return { graph, events, model, skills };
}

/** The store's nodes of a divergent role, ordered by level then position. */
export function nodesOf(store: InMemoryStore, role: DivergentRole) {
  return [...store.nodes.values()]
    .filter((n) => n.divergentRole === role)
    .sort((a, b) => (a.divergentLevel ?? 0) - (b.divergentLevel ?? 0) || a.position - b.position);
}

/** The question a paused run waits on; throws when it did not pause. */
export function pendingQuestion(result: unknown): { kind: string; question: string; context: Record<string, unknown> } {
  if (!isInterrupted(result)) throw new Error('expected the session to wait for the person');
  return result[INTERRUPT][0]!.value as never;
}

/** A `Command` that resumes with `value`. */
export const reply = (value: unknown) => new Command<unknown, Record<string, never>, never>({ resume: value });
