/**
 * What a graph step is, declared where the step is added to its graph (as LangGraph node metadata) so the
 * drawn topology is read from the compiled graph: `AGENT` asks the model to decide, `TOOL` is plain code or a
 * tool call, `HUMAN` waits for the person (it calls `interrupt()`).
 */
export const StepKind = { AGENT: 'AGENT', TOOL: 'TOOL', HUMAN: 'HUMAN' } as const;
export type StepKind = (typeof StepKind)[keyof typeof StepKind];

/** `addNode` options that mark a step's kind. */
export const stepKind = (kind: StepKind) => ({ metadata: { kind } });
