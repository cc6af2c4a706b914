import type { Access } from '../commands/access.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { TokenResolver } from './tokens.ts';

/** Why what was open with a token ends. */
export type TokenEnd = 'REVOKED' | 'EXPIRED';

/** How long a connection waits for its subscriptions to deliver their last message before it is closed anyway. */
const DELIVERY_BOUND_MS = 2_000;

type Closer = { close: (why: TokenEnd) => void | Promise<void>; last: boolean };
type Open = { closers: Set<Closer>; timer?: NodeJS.Timeout };

/**
 * Ends what is open with a token when the token is revoked (on any instance) or expires. A revocation is sent over
 * the bus (Redis when scaled out); each instance drops the token from its cache and ends what it has open for it:
 * subscriptions first (each sends its last, typed error), then the connections that carry them (WebSockets). When
 * Redis reconnects, a revocation may have been missed, so the whole token cache is dropped.
 */
export class TokenRevocations {
  readonly #open = new Map<string, Open>();

  constructor(
    private readonly bus: EventBus,
    tokens: Pick<TokenResolver, 'forget' | 'clear'>,
  ) {
    bus.onSignal(
      (signal) => {
        if (signal.type === 'token-revoked') {
          tokens.forget(signal.tokenId);
          void this.#end(signal.tokenId, 'REVOKED');
        }
      },
      () => tokens.clear(),
    );
  }

  /** Tells every instance (this one included) that the token was revoked. */
  announce(tokenId: string): void {
    this.bus.signal({ type: 'token-revoked', tokenId });
  }

  /**
   * Calls `close` when the access's token is revoked or expires while the thing is open; returns the stop. A
   * `last` closer (a connection) runs once the others (its subscriptions) have delivered what `close` returned.
   */
  track(
    access: Pick<Access, 'tokenId' | 'expiresAt'>,
    close: (why: TokenEnd) => void | Promise<void>,
    { last = false } = {},
  ): () => void {
    const { tokenId, expiresAt } = access;
    if (!tokenId) return () => {};
    let open = this.#open.get(tokenId);
    if (!open) {
      open = { closers: new Set() };
      this.#open.set(tokenId, open);
      const untilExpiry = expiresAt ? expiresAt.getTime() - Date.now() : Number.POSITIVE_INFINITY;
      if (untilExpiry < 2 ** 31) {
        open.timer = setTimeout(() => void this.#end(tokenId, 'EXPIRED'), Math.max(0, untilExpiry));
        open.timer.unref();
      }
    }
    const closer: Closer = { close, last };
    open.closers.add(closer);
    const tracked = open;
    return () => {
      tracked.closers.delete(closer);
      if (tracked.closers.size === 0 && this.#open.get(tokenId) === tracked) {
        clearTimeout(tracked.timer);
        this.#open.delete(tokenId);
      }
    };
  }

  /** Things open per token, for tests that wait until one is tracked. */
  openCount(tokenId: string): number {
    return this.#open.get(tokenId)?.closers.size ?? 0;
  }

  async #end(tokenId: string, why: TokenEnd): Promise<void> {
    const open = this.#open.get(tokenId);
    if (!open) return;
    this.#open.delete(tokenId);
    clearTimeout(open.timer);
    const closers = [...open.closers];
    let bound: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((resolve) => {
      bound = setTimeout(resolve, DELIVERY_BOUND_MS);
      bound.unref();
    });
    const delivered = closers.filter((c) => !c.last).map((c) => c.close(why));
    await Promise.race([Promise.all(delivered), bounded]);
    clearTimeout(bound);
    for (const closer of closers) if (closer.last) await closer.close(why);
  }
}
