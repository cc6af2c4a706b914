import type { CriticScope, DismissedFinding } from '../../ports/critic-store-port.ts';
import { CriticCommand, type SuggestedChange } from './schemas.ts';

/** A question as two findings are compared: case, spacing and punctuation (any script) do not count. */
const normalized = (text: string) => text.toLowerCase().replace(/[\p{P}\p{S}\s]+/gu, '');

/**
 * What makes two changes the same proposal: the command, the nodes it acts on and, for a question it adds or
 * rewrites, that question (two different gaps under one parent are two findings).
 */
function sameChange(a: SuggestedChange, b: SuggestedChange): boolean {
  switch (a.command) {
    case CriticCommand.ADD_SUB_QUESTION:
      return b.command === a.command && b.parentId === a.parentId && normalized(b.question) === normalized(a.question);
    case CriticCommand.EDIT_QUESTION:
      return b.command === a.command && b.nodeId === a.nodeId && normalized(b.question) === normalized(a.question);
    case CriticCommand.REDO_CONCLUSION:
      return b.command === a.command && b.nodeId === a.nodeId;
    case CriticCommand.ADD_DEPENDENCY:
      return b.command === a.command && b.nodeId === a.nodeId && b.dependsOnId === a.dependsOnId;
  }
}

/**
 * The dismissals that still stand for a review of `scope`: those whose every concerned node is in the scope at
 * the version the dismissed suggestion was based on. Once one of those nodes changed (or left), what the person
 * dismissed is no longer what the critic would find, so it may be found again.
 */
export function standingDismissals(scope: CriticScope): DismissedFinding[] {
  const versions = new Map(scope.nodes.map((n) => [n.id, n.version]));
  return scope.dismissed.filter((d) => {
    const concerned = Object.entries(d.nodeVersions);
    return concerned.length > 0 && concerned.every(([id, version]) => versions.get(id) === version);
  });
}

/** Whether a finding (its kind and change) repeats one of `dismissed`. */
export function repeatsDismissal(
  finding: { kind: DismissedFinding['kind']; change: SuggestedChange },
  dismissed: readonly DismissedFinding[],
): boolean {
  return dismissed.some((d) => d.kind === finding.kind && sameChange(d.change, finding.change));
}
