import ipaddr from 'ipaddr.js';
import type { RedisClient } from '../infra/redis';

/**
 * The throttling bucket of an address: an IPv4 address itself (also when IPv4-mapped), an IPv6 address by
 * its /64 network. One IPv6 host usually holds a whole /64, so counting single addresses would throttle
 * nobody.
 */
export function ipBucket(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  if (!ipaddr.isValid(address)) return ip;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}

/**
 * Login throttling on Redis, shared by every process: attempts per IP, and failures per account (reset
 * by a successful login). Fixed windows keep it to one INCR per check.
 *
 * An account attempt is counted before its password is checked and forgiven when the password proves
 * right: checking the count first and recording the failure after the (slow) hash would let a burst of
 * concurrent guesses all pass the check before any of them is recorded.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly maxPerIp: number,
    private readonly maxFailuresPerAccount: number,
    private readonly windowSeconds: number,
  ) {}

  /** Counts an attempt from `ip` (its /64 for IPv6); returns the seconds to wait when over the limit, else 0. */
  async hitIp(ip: string): Promise<number> {
    return this.hit(`${this.prefix}:login:ip:${ipBucket(ip)}`, this.maxPerIp);
  }

  /**
   * Counts an attempt on the account as a failure until `recordSuccess` forgives it; returns the seconds
   * to wait when the account is over its limit (then the password must not even be checked), else 0.
   */
  async hitAccount(email: string): Promise<number> {
    return this.hit(this.accountKey(email), this.maxFailuresPerAccount);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.redis.del(this.accountKey(email));
  }

  private accountKey(email: string): string {
    return `${this.prefix}:login:acct:${email}`;
  }

  private async hit(key: string, max: number): Promise<number> {
    const [count] = (await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').exec()) as unknown as [
      number,
      number,
    ];
    if (count <= max) return 0;
    return Math.max(1, await this.redis.ttl(key));
  }
}
