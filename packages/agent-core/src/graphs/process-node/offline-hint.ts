import type { OfflineHint } from '../../ports/model-port.ts';
import type { ProcessNodeStateType } from './state.ts';

/** The facts the offline model answers from, taken from the node's state. */
export function offlineHintOf(state: ProcessNodeStateType, reply?: string | null): OfflineHint {
  const facts = state.facts;
  return {
    language: state.language,
    question: facts?.question ?? '',
    goal: facts?.goal ?? '',
    depth: facts?.depth ?? 0,
    childCount: facts?.childCount ?? 0,
    concludedChildCount: facts?.concludedChildCount ?? 0,
    ...(reply ? { reply } : {}),
  };
}
