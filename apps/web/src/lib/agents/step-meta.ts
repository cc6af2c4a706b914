import { i18n } from '$lib/i18n/i18n.svelte.ts';
import type { PathStep } from './run-graph.ts';

const outcomeText = (outcome: string | null) => i18n.tOf(`runView.outcome.${outcome ?? 'running'}`);
const seconds = (ms: number | null) =>
  ms === null ? null : i18n.t('runView.duration', { seconds: (ms / 1000).toFixed(ms < 10_000 ? 1 : 0) });

/** How a step of a run's path ended and how long it took, in words ("done · 1.2 s"). */
export function stepMeta(step: Pick<PathStep, 'outcome' | 'durationMs'>): string {
  return [outcomeText(step.outcome), seconds(step.durationMs)].filter(Boolean).join(i18n.t('common.listSeparator'));
}
