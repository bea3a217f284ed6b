import { Agent, request } from 'node:http';
import { AppError, definePlugin, type PluginContext } from '../../../../server/index';
import { LOOPBACK_CHANNEL, LOOPBACK_URL_VARIABLE } from '../../names';

/**
 * Test and bench fixture (not product code), loaded through `BALCAO_PLUGINS` / `createTestApp({ plugins })`:
 * the channel `loopback`, whose driver sends over HTTP to the provider stand-in at `LOOPBACK_PROVIDER_URL`
 * (../../provider.ts). Like a real provider (WhatsApp keeps one message per message id), the stand-in keeps
 * one message per idempotency key: the key is the connection and the inbox's message id, the same on every
 * try of the same message.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function post(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const base = process.env[LOOPBACK_URL_VARIABLE];
  if (!base) return Promise.reject(new AppError('ERR_WAPP_NOT_INITIALIZED'));
  const data = Buffer.from(JSON.stringify(body));
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': data.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const unregister = new WeakMap<PluginContext, () => void>();

export default definePlugin({
  id: 'loopback-channel',
  register(_app, ctx) {
    const stop = ctx.services.use('inbox').registerDriver(LOOPBACK_CHANNEL, {
      async send(target, message) {
        const answer = await post('/messages', {
          key: `${target.whatsappId}:${message.messageId}`,
          to: target.contact.number,
          body: message.body,
          media: message.media ? message.media.fileName : null,
        });
        if (answer.status === 422) throw new AppError('ERR_WAPP_INVALID_CONTACT');
        if (answer.status !== 200) throw new AppError('ERR_SENDING_WAPP_MSG');
        return { channelMessageId: String((answer.json as { id: string }).id), ack: 1 };
      },
      async checkNumbers(_connectionId, numbers) {
        const answer = await post('/check', { numbers });
        return (answer.json as { valid: Array<boolean | null> }).valid;
      },
    });
    unregister.set(ctx, stop);
  },
  async close(ctx) {
    unregister.get(ctx)?.();
  },
});
