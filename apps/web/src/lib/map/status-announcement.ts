import type { Language, MapEvent, MapNode } from '../api/results.ts';
import { translate } from '../i18n/translate.ts';

/**
 * What the live region says about an applied event, in the interface language: a node that changed status,
 * a question an agent asks, a run that failed. Null for everything else (most events are not worth a word).
 */
export function announcementOf(event: MapEvent, before: MapNode | undefined, language: Language): string | null {
  switch (event.__typename) {
    case 'NodeUpdated':
    case 'NodeConcluded':
      if (!before || before.status === event.node.status) return null;
      return translate(language, 'announce.status', {
        question: event.node.question,
        status: translate(language, `status.${event.node.status}`),
      });
    case 'AgentQuestion':
      return translate(language, 'announce.question', { question: event.question });
    case 'RunFailed':
      return event.code === 'CANCELLED' ? null : translate(language, 'announce.failed', { reason: event.reason });
    default:
      return null;
  }
}
