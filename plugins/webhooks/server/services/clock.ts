/** What the dispatcher reads the time from (tests hand in their own to live through a day in a second). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
