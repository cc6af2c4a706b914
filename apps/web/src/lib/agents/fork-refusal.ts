import type { ApiError } from '../api/api-error.ts';
import type { MessageKey } from '../i18n/messages.ts';

/**
 * What to tell the person when the server refuses a fork, in their words (never the server's English message):
 * the run is busy, its checkpoints are gone, the edited sub-questions do not fit, the step or run is gone, or
 * the request never got through.
 */
export function forkRefusalKey(error: ApiError): MessageKey {
  switch (error.__typename) {
    case 'NetworkError':
      return 'common.offlineError';
    case 'ConflictError':
      return 'runView.fork.refused.busy';
    case 'NotFoundError':
      return 'runView.fork.refused.gone';
    case 'ValidationError':
      if (error.field === 'runId') return 'runView.fork.notKept';
      if (error.field === 'subQuestions') return 'runView.fork.refused.subQuestions';
      return 'runView.fork.refused.other';
    default:
      return 'runView.fork.refused.other';
  }
}
