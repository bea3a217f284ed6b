import { createClient } from 'redis';

function makeClient(url: string, name: string) {
  return createClient({
    url,
    name,
    socket: { reconnectStrategy: (retries) => Math.min(retries * 100, 2_000), connectTimeout: 3_000 },
  });
}

/** The Redis client type of this codebase (node-redis). */
export type RedisClient = ReturnType<typeof makeClient>;

/** Connects a Redis client; rejects with a clear message when nothing answers. */
export async function connectRedis(url: string, name: string): Promise<RedisClient> {
  const client = makeClient(url, name);
  // node-redis emits 'error' on every failed reconnect; without a listener the process would crash.
  client.on('error', () => {});
  await client.connect();
  return client;
}
