import { type OpenAiStandIn, startOpenAiStandIn } from '@balcao/plugin-sdk/testing/openai';
import { HANDOVER_MARKER } from '../../shared/voices';
import type { AiContext } from '../config';
import { allowAlso } from './provider';

/**
 * The demo's provider: outside production, with AI_DEMO_STANDIN_PORT set (`npm start` sets it), the plugin
 * runs the OpenAI-compatible stand-in on loopback at that port, and this app's provider client may reach
 * loopback, so the demo's prompt answers without any key or network. The walkers' fixtures use one the
 * same way (on a free port). In production it never runs.
 */
const standIns = new WeakMap<object, OpenAiStandIn>();

export const demoStandInUrl = (port: number) => `http://127.0.0.1:${port}/v1`;

/** Starts (once per app) the stand-in and lets the provider client reach it; answers its base URL. */
export async function ensureStandIn(ctx: AiContext, port = 0): Promise<string> {
  if (ctx.config.env === 'production') throw new Error('the AI stand-in does not run in production');
  const running = standIns.get(ctx);
  if (running) return running.url;
  const standIn = await startOpenAiStandIn({ port, handoverMarker: HANDOVER_MARKER });
  standIns.set(ctx, standIn);
  await allowAlso(ctx, ['127.0.0.1/32']);
  return standIn.url;
}

export async function startDemoStandIn(ctx: AiContext): Promise<void> {
  const port = ctx.config.AI_DEMO_STANDIN_PORT;
  if (port === 0 || ctx.config.env === 'production') return;
  try {
    await ensureStandIn(ctx, port);
  } catch (error) {
    // another process of the demo holds the port: its stand-in answers for both
    ctx.log.info({ port, err: error }, 'the demo AI stand-in runs elsewhere');
    await allowAlso(ctx, ['127.0.0.1/32']);
  }
}

export async function stopDemoStandIn(ctx: AiContext): Promise<void> {
  await standIns.get(ctx)?.close();
  standIns.delete(ctx);
}
