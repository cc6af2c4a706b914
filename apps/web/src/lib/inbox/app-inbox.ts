import { INBOX, MAPS } from '@thinkingmap/client';
import { runQuery } from '../api/request.ts';
import { session } from '../api/session.svelte.ts';
import { Inbox } from './inbox.svelte.ts';
import { BrowserNotifications } from './notifications.svelte.ts';

/** The app's inbox, loaded through the session's API client. */
export const inbox = new Inbox({
  async questions() {
    const result = await runQuery(session.api.client, INBOX);
    return result.ok ? result.value.pendingQuestions : null;
  },
  async maps() {
    const result = await runQuery(session.api.client, MAPS);
    return result.ok
      ? Object.fromEntries(
          result.value.map((map) => [
            map.id,
            { title: map.title, problem: map.problem || null, updatedAt: String(map.updatedAt) },
          ]),
        )
      : null;
  },
});

/** The app's browser notifications (off until the person turns them on). */
export const notifications = new BrowserNotifications(typeof window === 'undefined' ? null : window.localStorage);
