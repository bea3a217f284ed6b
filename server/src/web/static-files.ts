import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import type { LoadedPlugin } from '../plugins/loader';

/** Content-hashed files can be cached for ever; entry files (index.html, manifests) must be revalidated. */
function cacheHeaders(reply: FastifyReply, filePath: string): void {
  // precompressed copies (`.br`, `.gz`) of a hashed file are just as immutable
  const hashed = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpg)(\.br|\.gz)?$/.test(filePath);
  reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/**
 * Serves the built host shell at `/` (with the SPA fallback for client routes) and each plugin's built
 * remote at `/plugins/<id>/`. Static routes are public: they hold code, never data.
 */
export async function registerStaticFiles(
  app: FastifyInstance,
  options: { hostDist: string; apiPrefix: string; plugins: LoadedPlugin[] },
): Promise<void> {
  const indexFile = path.join(options.hostDist, 'index.html');
  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      request.method === 'GET' &&
      !request.url.startsWith(options.apiPrefix) &&
      !request.url.startsWith('/socket.io') &&
      !path.extname(request.url.split('?')[0] ?? '') &&
      String(request.headers.accept ?? '').includes('text/html');
    if (wantsPage && existsSync(indexFile)) {
      reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
      return reply.send(await readFile(indexFile));
    }
    return reply.status(404).send({ error: 'ERR_NOT_FOUND' });
  });

  await app.register(async (child) => {
    child.addHook('onRoute', (route: RouteOptions) => {
      route.config = { ...(route.config ?? {}), access: 'public', infra: true } as RouteOptions['config'];
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    if (existsSync(options.hostDist)) {
      await child.register(fastifyStatic, {
        root: options.hostDist,
        prefix: '/',
        wildcard: true,
        // `/` is a folder: without an index, @fastify/static answers it 403 instead of serving the shell
        index: ['index.html'],
        // scripts/precompress.ts writes .br and .gz beside each asset at build time
        preCompressed: true,
        setHeaders: cacheHeaders,
      });
    }
    for (const { discovered } of options.plugins) {
      if (
        discovered.manifest.kind === 'plugin' &&
        discovered.manifest.ui &&
        !existsSync(path.join(discovered.uiDist, 'mf-manifest.json'))
      ) {
        // its routes answer, but the shell lists no menu entry or page for it until its UI is built
        child.log.warn(
          { plugin: discovered.manifest.id, uiDist: discovered.uiDist },
          `plugin '${discovered.manifest.id}' declares a UI but ${discovered.uiDist} holds no build: run its "npm run build:ui"`,
        );
      }
      if (discovered.manifest.kind !== 'plugin' || !existsSync(discovered.uiDist)) continue;
      await child.register(fastifyStatic, {
        root: discovered.uiDist,
        prefix: `/plugins/${discovered.manifest.id}/`,
        decorateReply: false,
        preCompressed: true,
        setHeaders: cacheHeaders,
      });
    }
    // a plugin's standalone widget bundle (rspack.config.ts widgetConfigs), loaded by other sites' pages
    for (const { discovered } of options.plugins) {
      const widgetDist = path.join(path.dirname(discovered.uiDist), 'widget');
      if (discovered.manifest.kind !== 'plugin' || !existsSync(widgetDist)) continue;
      await child.register(fastifyStatic, {
        root: widgetDist,
        prefix: `/plugins/${discovered.manifest.id}/widget/`,
        decorateReply: false,
        preCompressed: true,
        setHeaders: cacheHeaders,
      });
    }
  });
}
