import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageApiContext } from '../config';
import { type MessageApiKit, messageApiKit } from '../testing/kit';
import { IDEMPOTENCY_RETENTION_DAYS, purgeIdempotencyRecords } from './retention';

let kit: MessageApiKit;
beforeAll(async () => {
  kit = await messageApiKit();
});
afterAll(() => kit?.close());

describe('idempotency retention', () => {
  it('deletes records past the retention and keeps the recent ones', async () => {
    const day = 86_400_000;
    const record = (key: string, ageDays: number) => ({
      companyId: kit.companyId,
      idempotencyKey: key,
      requestHash: 'x'.repeat(64),
      response: JSON.stringify({}),
      createdAt: new Date(Date.now() - ageDays * day),
    });
    await kit
      .knex('messageApiRequests')
      .insert([
        record('old-1', IDEMPOTENCY_RETENTION_DAYS + 1),
        record('old-2', IDEMPOTENCY_RETENTION_DAYS + 40),
        record('recent', IDEMPOTENCY_RETENTION_DAYS - 1),
      ]);
    const plugin = kit.t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'message-api');
    expect(await purgeIdempotencyRecords(plugin?.ctx as MessageApiContext)).toBe(2);
    const left = await kit
      .knex('messageApiRequests')
      .whereIn('idempotencyKey', ['old-1', 'old-2', 'recent'])
      .select('idempotencyKey');
    expect(left).toEqual([{ idempotencyKey: 'recent' }]);
  });
});
