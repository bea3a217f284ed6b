import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WIDGET_KEY } from './constants';
import { startWebchatDemoPage } from './demo-page';

/** The webchat demo pages: a shop with the floating widget, and the inline mode with the JS API. */
let demo: Awaited<ReturnType<typeof startWebchatDemoPage>>;

beforeAll(async () => {
  demo = await startWebchatDemoPage({ appUrl: 'http://127.0.0.1:9999/', port: 0 });
});
afterAll(async () => {
  await new Promise((resolve) => demo.server.close(resolve));
});

describe('webchat demo page', () => {
  it('embeds the widget with one script tag of the app, floating on the shop and inline on /inline', async () => {
    const shop = await fetch(`${demo.url}/`);
    expect(shop.status).toBe(200);
    const html = await shop.text();
    expect(html).toContain(
      `<script async src="http://127.0.0.1:9999/plugins/channels/widget/channels-widget.js" data-key="${DEMO_WIDGET_KEY}"></script>`,
    );
    const inline = await (await fetch(`${demo.url}/inline`)).text();
    expect(inline).toContain('data-mode="inline" data-target="#chat-here"');
    for (const call of ['open', 'close', 'toggle']) expect(inline).toContain(`data-call="${call}"`);
    for (const locale of ['pt', 'en', 'es', 'tr']) expect(inline).toContain(`data-locale="${locale}"`);
    expect((await fetch(`${demo.url}/nope`)).status).toBe(404);
  });
});
