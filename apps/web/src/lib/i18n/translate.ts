import type { Language } from '../api/types.ts';
import { MESSAGES, type MessageKey } from './messages.ts';

/** Values for a message's `{name}` placeholders. */
export type MessageParams = Record<string, string | number>;

/** The text of `key` in `language` with its placeholders filled. */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const template: string = MESSAGES[key][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
