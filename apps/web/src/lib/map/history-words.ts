import { isOneOf, type Language, StaleReason } from '@thinkingmap/db/enums';
import { MESSAGES, type MessageKey } from '../i18n/messages.ts';
import { translate } from '../i18n/translate.ts';
import { staleText } from './stale-text.ts';

const known = (key: string): key is MessageKey => key in MESSAGES;

/** Fields whose value is a node's id: shown as that node's question. */
const NODE_FIELDS = new Set(['parentId', 'staleSourceId', 'nodeId', 'dependsOnId']);
/** Fields whose value is a moment: shown as a local date and time. */
const TIME_FIELDS = new Set(['concludedAt', 'staleSince']);
/** Fields whose value is one of an enum's values, and the messages that name them. */
const ENUM_MESSAGES: Record<string, string> = { status: 'status', intent: 'agent.intent', strategy: 'agent.strategy' };

/**
 * A changed field of the map's history in words (the server names it as its column: `question`, `staleSince`);
 * a field with no words of its own is "another detail", never its internal name.
 */
export function fieldWords(field: string, language: Language): string {
  const key = `history.field.${field}`;
  return translate(language, known(key) ? key : 'history.field.other');
}

/**
 * A field's value before or after a change, in words: a node's question for a node id (`questionOf`), a local
 * date for a moment, why a conclusion went out of date, an enum value's name where the workspace has one, a list
 * joined; "—" for none.
 */
export function valueWords(
  field: string,
  value: unknown,
  language: Language,
  questionOf: (nodeId: string) => string | undefined,
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(String).join(translate(language, 'common.listSeparator'));
  const text = String(value);
  if (NODE_FIELDS.has(field)) return questionOf(text) ?? '…';
  if (TIME_FIELDS.has(field)) return new Date(text).toLocaleString(language === 'zh' ? 'zh-CN' : 'en');
  if (field === 'staleReason' && isOneOf(Object.values(StaleReason), text)) return staleText(language, text).reason;
  const named = ENUM_MESSAGES[field] ? `${ENUM_MESSAGES[field]}.${text}` : '';
  return known(named) ? translate(language, named) : text;
}
