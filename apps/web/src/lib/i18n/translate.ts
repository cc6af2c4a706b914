import type { Language } from '../api/results.ts';
import { MESSAGES, type MessageKey } from './messages.ts';

/** Values for a message's `{name}` placeholders. */
export type MessageParams = Record<string, string | number>;

/** Whether `key` names a message: a key built from a value the API sends is checked before it is read. */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(MESSAGES, key);

/**
 * The text of `key` in `language` with its placeholders filled. With `count` equal to 1, the message
 * `key.one` is used when there is one ("1 node", not "1 nodes").
 */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const singular = `${key}.one`;
  const chosen = params.count === 1 && isMessageKey(singular) ? singular : key;
  const template: string = MESSAGES[chosen][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
