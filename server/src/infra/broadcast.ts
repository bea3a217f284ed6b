import type { RedisClient } from './redis';

type Listener = (payload: unknown) => void;

/**
 * Messages between the processes of one deployment on a feature's topics (`ctx.broadcast`): a feature that
 * keeps live connections of its own (the webchat widget's visitors, the kanban widget's event streams)
 * publishes a change wherever it happens and every process holding an interested connection hears it.
 * One Redis channel per feature topic, subscribed while this process has a listener on it. Delivery is
 * at most once, in publish order per publisher, and only to processes listening at that moment.
 */
export class FeatureBroadcast {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly prefix: string,
  ) {}

  private channel(feature: string, topic: string): string {
    return `${this.prefix}:broadcast:${feature}:${topic}`;
  }

  async publish(feature: string, topic: string, payload: unknown): Promise<void> {
    await this.publisher.publish(this.channel(feature, topic), JSON.stringify(payload));
  }

  async subscribe(feature: string, topic: string, listener: Listener): Promise<() => Promise<void>> {
    const channel = this.channel(feature, topic);
    let set = this.listeners.get(channel);
    if (!set) {
      const fresh = new Set<Listener>();
      set = fresh;
      this.listeners.set(channel, fresh);
      await this.subscriber.subscribe(channel, (raw) => {
        let payload: unknown;
        try {
          payload = JSON.parse(raw);
        } catch {
          return; // not ours (another version's shape): nothing to deliver
        }
        for (const each of fresh) each(payload);
      });
    }
    set.add(listener);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(channel);
      await this.subscriber.unsubscribe(channel);
    };
  }
}
