import type { Language } from '../domain/enums.ts';
import type { Bilingual } from './prompt-text.ts';

/** The heading of the retrieved snippets appended to an agent's context. */
export const RETRIEVED_KNOWLEDGE_HEADING: Bilingual = {
  en: 'Retrieved knowledge (quote it only where it applies)',
  zh: '检索到的知识（仅在适用时引用）',
};

/** `context` followed by the retrieved snippets under their heading; `context` alone when there are none. */
export function withKnowledge(language: Language, context: string, knowledge: string): string {
  return knowledge ? `${context}\n\n${RETRIEVED_KNOWLEDGE_HEADING[language]}:\n${knowledge}` : context;
}
