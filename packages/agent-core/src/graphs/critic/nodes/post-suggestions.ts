import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { CriticScope, SuggestionInput } from '../../../ports/critic-store-port.ts';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import type { CriticDeps } from '../critic-deps.ts';
import { CRITIC_GRAPH } from '../critic-graph-name.ts';
import { repeatsDismissal, standingDismissals } from '../dismissals.ts';
import { nodeKey } from '../prompts.ts';
import { CriticCommand, type CriticFinding, type SuggestedChange } from '../schemas.ts';
import type { CriticStateType, CriticUpdate } from '../state.ts';

/** The finding's change with ids, or null when it names a node outside the scope or cannot be applied. */
function changeOf(finding: CriticFinding, scope: CriticScope, byKey: Map<string, string>): SuggestedChange | null {
  const { command, node, question, goal, dependsOn } = finding.change;
  const nodeId = byKey.get(node);
  if (!nodeId) return null;
  const target = scope.nodes.find((n) => n.id === nodeId)!;
  switch (command) {
    case CriticCommand.ADD_SUB_QUESTION:
      return question?.trim()
        ? { command, parentId: nodeId, question: question.trim(), goal: goal?.trim() ?? '' }
        : null;
    case CriticCommand.EDIT_QUESTION:
      return question?.trim() && question.trim() !== target.question
        ? { command, nodeId, question: question.trim(), goal: goal?.trim() || null }
        : null;
    case CriticCommand.REDO_CONCLUSION:
      return target.conclusion ? { command, nodeId } : null;
    case CriticCommand.ADD_DEPENDENCY: {
      const other = dependsOn ? scope.nodes.find((n) => n.id === byKey.get(dependsOn)) : undefined;
      if (!other || other.id === nodeId || other.parentId !== target.parentId) return null;
      return { command, nodeId, dependsOnId: other.id };
    }
  }
}

/**
 * Turns the model's findings into suggestions (node keys to ids, each with the versions it was based on) and
 * posts them in one change. A finding that names no node of the scope or proposes nothing applicable is
 * dropped, never guessed at; one that repeats a dismissal that still stands (the person dismissed it and
 * nothing it concerns changed since) is not posted again.
 */
export function postSuggestions(deps: CriticDeps) {
  return async (state: CriticStateType, config: LangGraphRunnableConfig): Promise<CriticUpdate> => {
    const scope = state.scope!;
    const byKey = new Map(scope.nodes.map((n, i) => [nodeKey(i), n.id]));
    const versions = new Map(scope.nodes.map((n) => [n.id, n.version]));
    const dismissed = standingDismissals(scope);
    const suggestions: SuggestionInput[] = [];
    let repeated = 0;
    for (const [index, finding] of (state.review?.findings ?? []).entries()) {
      const change = changeOf(finding, scope, byKey);
      const nodeIds = [...new Set(finding.nodes.map((k) => byKey.get(k)).filter((id): id is string => !!id))];
      if (!change || nodeIds.length === 0) continue;
      if (repeatsDismissal({ kind: finding.kind, change }, dismissed)) {
        repeated += 1;
        continue;
      }
      // The change's own nodes count as concerned: a suggestion is refused once any of them changed.
      for (const id of Object.values(change))
        if (typeof id === 'string' && versions.has(id) && !nodeIds.includes(id)) nodeIds.push(id);
      const nodeVersions = Object.fromEntries(nodeIds.map((id) => [id, versions.get(id)!]));
      suggestions.push({
        kind: finding.kind,
        nodeIds,
        nodeVersions,
        explanation: finding.explanation,
        change,
        key: `finding-${index}`,
      });
    }
    const run = runRefOf(config, CRITIC_GRAPH);
    const suggestionIds = suggestions.length
      ? await deps.critic.postSuggestions(run.runId, suggestions, {
          idempotencyKey: writeKey(config, 'postSuggestions'),
        })
      : [];
    const dropped = (state.review?.findings.length ?? 0) - suggestions.length - repeated;
    return { suggestionIds, dropped, repeated };
  };
}
