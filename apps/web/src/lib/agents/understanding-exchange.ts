import { isRecord } from '../api/json.ts';

/** A restatement of the person's problem by the problem-understanding agent. */
export interface Understanding {
  title?: string;
  problem?: string;
  goal?: string;
  constraints?: string[];
}

/** One earlier round of problem understanding: what the agent understood and how the person corrected it. */
export interface UnderstandingRound {
  understanding: Understanding;
  correction: string;
}

/** The exchange so far, read from a confirm-understanding question's context (stored, so it survives a reload). */
export interface UnderstandingExchange {
  current: Understanding;
  earlier: UnderstandingRound[];
}

function understandingOf(value: unknown): Understanding {
  if (!isRecord(value)) return {};
  const text = (key: string) => {
    const field = value[key];
    return typeof field === 'string' ? field : undefined;
  };
  const constraints = Array.isArray(value.constraints)
    ? value.constraints.filter((c): c is string => typeof c === 'string')
    : undefined;
  return { title: text('title'), problem: text('problem'), goal: text('goal'), constraints };
}

/** Reads the current restatement and the earlier, corrected ones; anything malformed is left out. */
export function understandingExchange(context: unknown): UnderstandingExchange {
  const record = isRecord(context) ? context : {};
  const earlier = Array.isArray(record.history)
    ? record.history.flatMap((round) =>
        isRecord(round) && typeof round.correction === 'string'
          ? [{ understanding: understandingOf(round.understanding), correction: round.correction }]
          : [],
      )
    : [];
  return { current: understandingOf(record.understanding), earlier };
}
