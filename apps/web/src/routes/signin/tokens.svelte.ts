import { API_TOKENS, CREATE_API_TOKEN, REVOKE_API_TOKEN, type ResultOf, type SchemaEnum } from '@thinkingmap/client';
import type { ApiError } from '$lib/api/api-error.ts';
import { runMutation, runQuery } from '$lib/api/request.ts';
import type { Session } from '$lib/api/session.svelte.ts';

/** One of the viewer's tokens, as the list shows it (never the token itself). */
export type ApiTokenRow = ResultOf<typeof API_TOKENS>['apiTokens'][number];

/** What a new token may do and until when. */
export interface NewToken {
  label: string;
  scope: SchemaEnum<'TokenScope'>;
  /** Days until it expires; null = never. */
  days: number | null;
}

/**
 * The viewer's tokens on the sign-in page: listed, created (the new token is shown once), revoked. Revoking the
 * token this browser signed in with signs it out.
 */
export class TokenList {
  tokens = $state<ApiTokenRow[]>([]);
  /** A token just created: shown once, until the page is left or another is created. */
  created = $state<string | null>(null);
  error = $state<ApiError | null>(null);

  constructor(private readonly session: Session) {}

  async load(): Promise<void> {
    const result = await runQuery(this.session.api.client, API_TOKENS);
    if (result.ok) this.tokens = result.value;
    this.error = result.ok ? null : result.error;
  }

  async create(token: NewToken): Promise<void> {
    const expiresAt = token.days === null ? null : new Date(Date.now() + token.days * 86_400_000).toISOString();
    const result = await runMutation(this.session.api.client, CREATE_API_TOKEN, {
      label: token.label,
      scope: token.scope,
      expiresAt,
    });
    if (!result.ok) {
      this.error = result.error;
      return;
    }
    this.created = result.value.token;
    await this.load();
  }

  /** Revokes `token`; returns true when it was this browser's own (which is now signed out). */
  async revoke(token: ApiTokenRow): Promise<boolean> {
    const result = await runMutation(this.session.api.client, REVOKE_API_TOKEN, { id: token.id });
    if (!result.ok) {
      this.error = result.error;
      return false;
    }
    if (token.current) {
      this.session.setToken(null);
      return true;
    }
    await this.load();
    return false;
  }
}
