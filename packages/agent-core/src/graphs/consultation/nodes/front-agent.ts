import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { frontMessages } from '../../../prompts/consultation.ts';
import { FRONT_REPLY_READABLE, FrontReplySchema } from '../../../schemas/consultation.ts';
import type { ConsultationDeps } from '../consultation-deps.ts';
import { conversationUpTo, unanswered } from '../replies.ts';
import type { ConsultationStateType, ConsultationUpdate } from '../state.ts';
import { throwIfAborted } from './abort.ts';
import { messagesToCompress } from './compress-context.ts';

/**
 * The front agent (design 003's `front_agent`). It answers the person's latest message at once, its reply
 * streaming as it is written, and stores the reply; the planner works beside it on the same messages (the
 * graph starts both together), so the reply never waits for a plan. Its route (work, chat, the end) is kept
 * for the record: the planner decides for itself. After the planner asked for it, it puts the planner's
 * question to the person (the planner wrote it for them; no model call), always after the reply, which the
 * graph stored in an earlier step, and the turn waits for their answer. Each reply names the message it answers,
 * so a message sent while a reply was being written is answered by the next turn, and a turn run again (a restart
 * cut it short after the reply was stored) finds that message answered: the person is not answered twice, and the
 * planner goes on with what is unplanned.
 */
export function frontAgent(deps: ConsultationDeps) {
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    throwIfAborted(config);
    if (state.askUser) {
      // The question stands after the person's messages this turn had in view, not after one sent since.
      const seen = state.messages.findLast((m) => m.role === 'PERSON');
      await deps.store.appendMessage(state.consultationId, {
        role: 'ASSISTANT',
        text: state.askUser,
        answersId: seen?.id ?? null,
      });
      // The question ends the turn, so `messages` is left as it is: the compression after the reply may run in
      // this same step, and two updates of `messages` in one step would overwrite each other.
      return { innerMessages: [`asked the person: ${state.askUser}`], askUser: null, asked: true };
    }
    const waiting = unanswered(state.messages);
    // ENQUEUE: each message its own reply, in order. INTERRUPT: the latest replaces what came before it.
    const targets = state.strategy === 'ENQUEUE' ? waiting : waiting.slice(-1);
    let messages = state.messages;
    let frontRoute: ConsultationUpdate['frontRoute'];
    for (const target of targets) {
      const conversation = { ...state, messages: conversationUpTo(messages, target) };
      const result = await deps.model.structured({
        agent: 'front',
        schema: FrontReplySchema,
        schemaName: 'front_reply',
        readable: FRONT_REPLY_READABLE,
        // The messages the compression after this reply summarises are left out now (the summary so far stands
        // for what came before them), so the prompt stays bounded without the reply waiting for a summary.
        messages: frontMessages(conversation, new Set(messagesToCompress(state, deps))),
        offlineHint: { language: state.language, question: target.text },
        signal: config.signal,
        onToken: (text) => deps.stream?.replyStreamed(state.consultationId, text),
      });
      throwIfAborted(config);
      const message = await deps.store.appendMessage(state.consultationId, {
        role: 'ASSISTANT',
        text: result.value.reply,
        answersId: target.id,
      });
      messages = [...messages, message];
      frontRoute = result.value.route;
    }
    return targets.length ? { messages, frontRoute } : {};
  };
}
