/** A change a critic finding proposes, as the model writes it (the fields it leaves out are null). */
export const criticChange = (command: string, node: string, extra: Record<string, string | null> = {}) => ({
  command,
  node,
  question: null,
  goal: null,
  dependsOn: null,
  ...extra,
});

/** One finding of the critic as the model writes it: its kind, the nodes by prompt key, why, and the change. */
export const criticFinding = (
  kind: string,
  nodes: string[],
  explanation: string,
  change: ReturnType<typeof criticChange>,
) => ({ kind, nodes, explanation, change });
