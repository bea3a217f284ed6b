import type { RedisClient } from '../infra/redis';

/** What a cache invalidation message names. */
export type InvalidationMessage =
  | { kind: 'user'; id: number }
  | { kind: 'company'; id: number }
  | { kind: 'plan'; id: number }
  /** A refresh-token family revoked (logout, reuse, takeover): its access tokens stop working at once. */
  | { kind: 'family'; id: string; until: number }
  /** An API key revoked: every process drops its cached copy, so the key stops working at once. */
  | { kind: 'apiKey'; id: number };

/**
 * Cross-process invalidation of in-memory caches: a write anywhere publishes on one Redis channel and
 * every process drops its copy. Local listeners run at once, before the publish returns.
 */
export class InvalidationBus {
  private readonly listeners = new Set<(message: InvalidationMessage) => void>();
  private readonly channel: string;

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    prefix: string,
  ) {
    this.channel = `${prefix}:invalidate`;
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(this.channel, (raw) => {
      try {
        this.dispatch(JSON.parse(raw) as InvalidationMessage);
      } catch {
        // a malformed message from another version is ignored: caches expire by TTL anyway
      }
    });
  }

  onInvalidate(listener: (message: InvalidationMessage) => void): void {
    this.listeners.add(listener);
  }

  async publish(message: InvalidationMessage): Promise<void> {
    this.dispatch(message);
    await this.publisher.publish(this.channel, JSON.stringify(message));
  }

  private dispatch(message: InvalidationMessage): void {
    for (const listener of this.listeners) listener(message);
  }
}
