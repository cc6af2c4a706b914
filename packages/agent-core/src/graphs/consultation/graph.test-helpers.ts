import type { Language } from '../../domain/enums.ts';
import type { ModelPort } from '../../ports/model-port.ts';
import type { PlannerDecision } from '../../schemas/consultation.ts';
import { InMemoryConsultationStore } from '../../testing/in-memory-consultation-store.ts';
import { ConsultationConductor } from './conductor.ts';
import type { ConsultationDeps } from './consultation-deps.ts';
import { createConsultationGraph } from './graph.ts';

/** A promise the test opens when it wants (a model answer that waits). */
export function gate() {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A planner decision with nothing to do but `overrides`. */
export const decision = (overrides: Partial<PlannerDecision>): PlannerDecision => ({
  next: 'FINISH',
  askUser: null,
  record: null,
  note: null,
  ...overrides,
});

/** A front reply that sends the turn to the planner (or elsewhere). */
export const reply = (text: string, route: 'plan' | 'chat' | 'end' = 'plan') => ({ reply: text, route });

/** A consultation `c1` in an in-memory store, its graph and conductor over `model`, and what streamed. */
export function setUpConsultation(
  model: ModelPort,
  options: Partial<Pick<ConsultationDeps, 'compressAfterTurns' | 'maxPlannerCalls'>> & { language?: Language } = {},
) {
  const store = new InMemoryConsultationStore();
  store.add('c1', options.language ?? 'en');
  const streamed: string[] = [];
  const graph = createConsultationGraph({
    model,
    store,
    notes: store,
    stream: { replyStreamed: (_id, text) => streamed.push(text) },
    ...options,
  });
  const conductor = new ConsultationConductor(graph, store);
  return { store, graph, conductor, streamed, held: () => store.get('c1') };
}
