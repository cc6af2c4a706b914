import type { Language } from '../api/results.ts';
import { MESSAGES, type MessageKey } from './messages.ts';

/** Values for a message's `{name}` placeholders. */
export type MessageParams = Record<string, string | number>;

/**
 * The text of `key` in `language` with its placeholders filled. With `count` equal to 1, the message
 * `key.one` is used when there is one ("1 node", not "1 nodes").
 */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const singular = `${key}.one`;
  const chosen = params.count === 1 && singular in MESSAGES ? (singular as MessageKey) : key;
  const template: string = MESSAGES[chosen][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
