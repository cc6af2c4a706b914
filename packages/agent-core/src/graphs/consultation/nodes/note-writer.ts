import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { isAgentError } from '../../../errors/agent-error.ts';
import type { ConsultationDeps } from '../consultation-deps.ts';
import type { ConsultationStateType, ConsultationUpdate } from '../state.ts';
import { noteWriteKey } from '../write-keys.ts';
import { throwIfAborted } from './abort.ts';

const WRITTEN = { en: 'Note written', zh: '已写笔记' } as const;
const ALREADY_WRITTEN = { en: 'Note already written', zh: '此前已写笔记' } as const;
const REFUSED = { en: 'Note refused', zh: '笔记被拒绝' } as const;

/**
 * Writes the notes the planner decided on through the notes port (design 003's `note_writer`; once per
 * planned message, path and content, see {@link noteWriteKey}: a note a turn run again decides again is told
 * as already written, never as written twice). A path the
 * port refuses (it leaves the map's notes folder) is told to the planner and the person; nothing is written.
 */
export function noteWriter(deps: ConsultationDeps) {
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    const inner: string[] = [];
    const logs: string[] = [];
    for (const note of state.pendingNotes) {
      throwIfAborted(config);
      try {
        const idempotencyKey = noteWriteKey(state.consultationId, state.unplanned[0] ?? null, note);
        const { path, written } = await deps.notes.write(state.consultationId, note, { idempotencyKey });
        inner.push(`note ${path} ${written ? 'written' : 'already written'}`);
        logs.push(`${(written ? WRITTEN : ALREADY_WRITTEN)[state.language]}: ${path}`);
      } catch (error) {
        if (!isAgentError(error, 'INVALID_INPUT')) throw error;
        inner.push(`note ${note.path} refused: ${error.message}`);
        logs.push(`${REFUSED[state.language]}: ${note.path.slice(0, 120)}`);
      }
      await deps.store.log(state.consultationId, logs[logs.length - 1] ?? '');
    }
    return { pendingNotes: [], innerMessages: inner, logs };
  };
}
