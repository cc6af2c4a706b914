import type { MapEvent, NodeDetail } from '../api/results.ts';

/** Events that change a node's panel details (messages and context), not the tree. */
export type DetailEvent = Extract<
  MapEvent,
  { __typename: 'MessagePosted' | 'MessagesChanged' | 'ContextUpdated' | 'ConversationCleared' }
>;

/** A node's details after a message, context or clearing event; idempotent (ids are not added twice). */
export function applyToDetail(detail: NodeDetail, event: DetailEvent): NodeDetail {
  switch (event.__typename) {
    case 'MessagePosted': {
      const { message } = event;
      const conversations = detail.conversations.map((conversation) =>
        conversation.id === message.conversationId && !conversation.messages.some((m) => m.id === message.id)
          ? { ...conversation, messages: [...conversation.messages, message] }
          : conversation,
      );
      return { ...detail, conversations };
    }
    case 'MessagesChanged': {
      // An undo, redo or restore hid messages (deletedAt set) or showed them again, in their place by time.
      const hidden = new Set(event.messages.filter((m) => m.deletedAt).map((m) => m.id));
      const shown = event.messages.filter((m) => !m.deletedAt);
      const conversations = detail.conversations.map((conversation) => {
        if (conversation.id !== event.conversationId) return conversation;
        const kept = conversation.messages.filter((m) => !hidden.has(m.id) && !shown.some((s) => s.id === m.id));
        const messages = [...kept, ...shown].sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
        return { ...conversation, messages };
      });
      return { ...detail, conversations };
    }
    case 'ContextUpdated': {
      const others = detail.contextItems.filter((item) => item.id !== event.item.id);
      return { ...detail, contextItems: event.action === 'ADDED' ? [...others, event.item] : others };
    }
    case 'ConversationCleared':
      return {
        ...detail,
        conversations: detail.conversations.map((conversation) =>
          conversation.kind === event.conversation ? { ...conversation, messages: [] } : conversation,
        ),
      };
  }
}
