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
 * Login throttling on Redis, shared by every process: failures per address and failures per account,
 * in fixed windows (one INCR per check). Successful logins don't count: an office behind one address
 * (or a room of people trying the demo) logs in as often as it likes, while a run of wrong passwords
 * from it is refused for the rest of the window, right password or not — the address's failures and the
 * account's lock are what stop guessing.
 *
 * An attempt is counted before its password is checked and forgiven when the password proves right:
 * checking the count first and recording the failure after the (slow) hash would let a burst of
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

  /**
   * Counts a login attempt from `ip` (its /64 for IPv6) as a failure until `recordSuccess` forgives it;
   * returns the seconds to wait when the address is over its limit, else 0.
   */
  async hitIp(ip: string): Promise<number> {
    return this.hit(this.ipKey(ip), this.maxPerIp);
  }

  /** Counts a signup from `ip` (every one: each makes a company); the seconds to wait when over the limit, else 0. */
  async hitSignup(ip: string): Promise<number> {
    return this.hit(`${this.prefix}:signup:ip:${ipBucket(ip)}`, this.maxPerIp);
  }

  /**
   * Counts an attempt on the account as a failure until `recordSuccess` forgives it; returns the seconds
   * to wait when the account is over its limit (then the password must not even be checked), else 0.
   */
  async hitAccount(email: string): Promise<number> {
    return this.hit(this.accountKey(email), this.maxFailuresPerAccount);
  }

  /**
   * The password was right: the account's failures are forgiven, and this attempt no longer counts
   * against the address (its earlier failures still do).
   */
  async recordSuccess(email: string, ip: string): Promise<void> {
    const key = this.ipKey(ip);
    await this.redis.multi().del(this.accountKey(email)).decr(key).exec();
  }

  private ipKey(ip: string): string {
    return `${this.prefix}:login:ip:${ipBucket(ip)}`;
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
