import { createOutboundHttp, type OutboundHttp } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';

/** One guarded client per app (each test app has its own context): it pools connections. */
const clients = new WeakMap<object, OutboundHttp>();

/** The guarded client every call to an integration goes through (docs/plugin-authoring.md "Outbound HTTP"). */
export function integrationHttp(ctx: FlowbuilderContext): OutboundHttp {
  let client = clients.get(ctx);
  if (!client) {
    client = createOutboundHttp({
      allow: ctx.config.outboundHttpAllow,
      timeoutMs: ctx.config.FLOWBUILDER_HTTP_TIMEOUT_MS,
      maxBytes: ctx.config.FLOWBUILDER_HTTP_MAX_BYTES,
    });
    clients.set(ctx, client);
  }
  return client;
}

export async function closeIntegrationHttp(ctx: FlowbuilderContext): Promise<void> {
  await clients.get(ctx)?.close();
  clients.delete(ctx);
}
