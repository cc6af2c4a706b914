import { i18n } from '../i18n/i18n.svelte.ts';

/** What a question of `kind` asks of the person, in the interface language. */
export function kindLabel(kind: string): string {
  switch (kind) {
    case 'confirm-understanding':
    case 'review-decomposition':
    case 'review-conclusion':
    case 'clarify':
    case 'review-divergent-tasks':
      return i18n.t(`inbox.kind.${kind}`);
    default:
      return i18n.t('inbox.kind.other');
  }
}
