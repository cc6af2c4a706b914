import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { isAgentError } from '../../../errors/agent-error.ts';
import type { ConsultationDeps } from '../consultation-deps.ts';
import type { ConsultationStateType, ConsultationUpdate } from '../state.ts';
import { recordWriteKey } from '../write-keys.ts';
import { throwIfAborted } from './abort.ts';

const RECORDED = { en: 'Recorded', zh: '已记录' } as const;
const ALREADY_RECORDED = { en: 'Already recorded', zh: '此前已记录' } as const;
const PROPOSED = { en: 'Sub-questions proposed for review', zh: '已提出子问题，等待审核' } as const;
const NOT_PROPOSED = { en: 'Proposal refused', zh: '提议被拒绝' } as const;

/**
 * Writes the records the planner decided on through the store port (design 003's `db_writer`; once per source
 * message and content, see {@link recordWriteKey}: a record a turn run again decides again is told as already
 * recorded, never as recorded twice), and sends its
 * sub-question proposals to the person's decomposition review (a proposal the store refuses — an unknown or
 * busy node — is told to the planner and the person; nothing is proposed).
 */
export function dbWriter(deps: ConsultationDeps) {
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    const inner: string[] = [];
    const logs: string[] = [];
    for (const record of state.pendingRecords) {
      throwIfAborted(config);
      const { id, written } = await deps.store.writeRecord(state.consultationId, record, {
        idempotencyKey: recordWriteKey(state.consultationId, record),
      });
      inner.push(`record ${id} ${written ? 'written' : 'already kept'} (${record.kind}): ${record.content}`);
      const text = `${(written ? RECORDED : ALREADY_RECORDED)[state.language]}: ${record.content.slice(0, 120)}`;
      await deps.store.log(state.consultationId, text);
      logs.push(text);
    }
    for (const proposal of state.pendingProposals) {
      throwIfAborted(config);
      let text: string;
      try {
        const { runId } = await deps.store.propose(state.consultationId, proposal);
        inner.push(`sub-questions for node ${proposal.nodeId} sent to the person's review (run ${runId})`);
        text = `${PROPOSED[state.language]}: ${proposal.subQuestions.map((q) => q.question).join('; ')}`.slice(0, 200);
      } catch (error) {
        if (!isAgentError(error, 'INVALID_INPUT')) throw error;
        inner.push(`proposal for node ${proposal.nodeId} refused: ${error.message}`);
        text = `${NOT_PROPOSED[state.language]}: ${error.message}`.slice(0, 200);
      }
      await deps.store.log(state.consultationId, text);
      logs.push(text);
    }
    return { pendingRecords: [], pendingProposals: [], innerMessages: inner, logs };
  };
}
