import type { RedisClient } from '../infra/redis';

/**
 * Login throttling on Redis, shared by every process: attempts per IP, and failures per account (reset
 * by a successful login). Fixed windows keep it to one INCR per check.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly maxPerIp: number,
    private readonly maxFailuresPerAccount: number,
    private readonly windowSeconds: number,
  ) {}

  /** Counts an attempt from `ip`; returns the seconds to wait when over the limit, else 0. */
  async hitIp(ip: string): Promise<number> {
    return this.hit(`${this.prefix}:login:ip:${ip}`, this.maxPerIp, true);
  }

  /** Seconds to wait when the account is locked by too many failures, else 0. */
  async accountLocked(email: string): Promise<number> {
    const key = this.accountKey(email);
    const count = Number((await this.redis.get(key)) ?? 0);
    if (count < this.maxFailuresPerAccount) return 0;
    return Math.max(1, await this.redis.ttl(key));
  }

  async recordFailure(email: string): Promise<void> {
    await this.hit(this.accountKey(email), Number.POSITIVE_INFINITY, false);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.redis.del(this.accountKey(email));
  }

  private accountKey(email: string): string {
    return `${this.prefix}:login:acct:${email}`;
  }

  private async hit(key: string, max: number, countsAgainst: boolean): Promise<number> {
    const [count] = (await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').exec()) as unknown as [
      number,
      number,
    ];
    if (!countsAgainst || count <= max) return 0;
    return Math.max(1, await this.redis.ttl(key));
  }
}
