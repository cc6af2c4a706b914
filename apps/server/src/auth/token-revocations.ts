import type { EventBus } from '../events/event-bus.ts';
import type { TokenResolver } from './tokens.ts';

/**
 * Makes a revocation take effect at once on every instance: it is sent over the bus (Redis when scaled out); each
 * instance drops the token from its cache and closes what it has open for it (WebSockets, SSE subscriptions).
 * When Redis reconnects, a revocation may have been missed, so the whole token cache is dropped.
 */
export class TokenRevocations {
  readonly #open = new Map<string, Set<() => void>>();

  constructor(
    private readonly bus: EventBus,
    private readonly tokens: Pick<TokenResolver, 'forget' | 'clear'>,
  ) {
    bus.onSignal(
      (signal) => {
        if (signal.type === 'token-revoked') this.#revoked(signal.tokenId);
      },
      () => tokens.clear(),
    );
  }

  /** Tells every instance (this one included) that the token was revoked. */
  announce(tokenId: string): void {
    this.bus.signal({ type: 'token-revoked', tokenId });
  }

  /** Calls `close` if the token is revoked while the connection is open; returns the stop. */
  track(tokenId: string, close: () => void): () => void {
    let set = this.#open.get(tokenId);
    if (!set) {
      set = new Set();
      this.#open.set(tokenId, set);
    }
    set.add(close);
    return () => {
      set.delete(close);
      if (set.size === 0 && this.#open.get(tokenId) === set) this.#open.delete(tokenId);
    };
  }

  /** Connections open per token, for tests that wait until one is tracked. */
  openCount(tokenId: string): number {
    return this.#open.get(tokenId)?.size ?? 0;
  }

  #revoked(tokenId: string): void {
    this.tokens.forget(tokenId);
    const set = this.#open.get(tokenId);
    this.#open.delete(tokenId);
    for (const close of set ?? []) close();
  }
}
