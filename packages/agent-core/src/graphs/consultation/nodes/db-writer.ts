import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ConsultationDeps } from '../consultation-deps.ts';
import type { ConsultationStateType, ConsultationUpdate } from '../state.ts';
import { throwIfAborted } from './abort.ts';

const RECORDED = { en: 'Recorded', zh: '已记录' } as const;

/** Writes the records the planner decided on through the store port (design 003's `db_writer`). */
export function dbWriter(deps: ConsultationDeps) {
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    const inner: string[] = [];
    const logs: string[] = [];
    for (const record of state.pendingRecords) {
      throwIfAborted(config);
      const { id } = await deps.store.writeRecord(state.consultationId, record);
      inner.push(`record ${id} written (${record.kind}): ${record.content}`);
      const text = `${RECORDED[state.language]}: ${record.content.slice(0, 120)}`;
      await deps.store.log(state.consultationId, text);
      logs.push(text);
    }
    return { pendingRecords: [], innerMessages: inner, logs };
  };
}
