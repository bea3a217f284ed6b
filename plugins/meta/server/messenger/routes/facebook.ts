import { AppError, access, defineRoutes, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { requireAccountFree } from '../../accounts';
import { type MetaContext, metaApp } from '../../config';
import { graphOf } from '../../graph/client';
import { mapGraphError } from '../../graph/errors';
import { seal, secretsKey } from '../../secrets';
import { activatePage } from '../channel';

const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });
const FacebookBody = StrictObject({
  facebookUserId: Type.String({ minLength: 1, maxLength: 64, pattern: '^\\d+$' }),
  facebookUserToken: Type.String({ minLength: 8, maxLength: 2048 }),
  addInstagram: Type.Optional(Type.Boolean()),
  /** The pages chosen (ours): default every page the token manages. */
  pageIds: Type.Optional(Type.Array(Type.String({ pattern: '^\\d{5,32}$' }), { minItems: 1, maxItems: 50 })),
});
const Created = Type.Object({
  connections: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), channel: Type.String(), number: Type.String() }),
  ),
});

interface GraphPage {
  id: string;
  name?: string;
  access_token?: string;
  instagram_business_account?: { id?: string; username?: string };
}

/**
 * The pages a Facebook Login user token manages, with their page tokens and linked Instagram accounts: the
 * short-lived token exchanged for a long-lived one first, whose page tokens don't expire.
 */
async function managedPages(
  meta: MetaContext,
  settings: { id: string; secret: string },
  facebookUserToken: string,
): Promise<GraphPage[]> {
  const graph = graphOf(meta);
  try {
    const exchanged = await graph.call<{ access_token: string }>('oauth/access_token', {
      query: {
        grant_type: 'fb_exchange_token',
        client_id: settings.id,
        client_secret: settings.secret,
        fb_exchange_token: facebookUserToken,
      },
    });
    const listed = await graph.call<{ data?: GraphPage[] }>('me/accounts', {
      token: exchanged.access_token,
      query: { fields: 'id,name,access_token,instagram_business_account{id,username}', limit: '100' },
    });
    return (listed.data ?? []).filter((page) => page.access_token);
  } catch (error) {
    const { code } = mapGraphError(error);
    throw new AppError(code === 'ERR_META_UNAVAILABLE' || code === 'ERR_META_RATE_LIMITED' ? code : 'ERR_META_TOKEN_INVALID');
  }
}

const PagesBody = StrictObject({ facebookUserToken: Type.String({ minLength: 8, maxLength: 2048 }) });
const FoundPage = Type.Object({
  id: Type.String(),
  name: Type.String(),
  instagram: Type.Union([Type.Object({ id: Type.String(), username: Type.String() }), Type.Null()]),
  /** Which of the page and its account this company has connected already. */
  connected: Type.Object({ facebook: Type.Boolean(), instagram: Type.Boolean() }),
});

/**
 * `POST /facebook` (docs/meta.md): Facebook Login's page-token flow. The browser's short-lived user token
 * is exchanged for a long-lived one, whose page tokens don't expire; the pages it manages (and their
 * linked Instagram accounts with `addInstagram`) each become a connection, started at once: its id
 * claimed on the platform and the app subscribed to its webhooks.
 */
export default defineRoutes((app, ctx) => {
  const meta = ctx as MetaContext;
  const sessionOf = (request: { session: unknown }) => request.session as { companyId: number; userId: number };

  app.get(
    '/meta/facebook/login',
    {
      schema: {
        summary: "Facebook Login's settings for the Connections page: the Meta app id and where its JS SDK is",
        querystring: NoQuery,
        response: {
          200: Type.Object({
            /** False when the server has no Meta app: the dialog says so instead of logging in. */
            configured: Type.Boolean(),
            appId: Type.Union([Type.String(), Type.Null()]),
            sdkUrl: Type.String(),
            graphVersion: Type.String(),
          }),
        },
      },
      config: access.permission('connections-page:addConnection'),
    },
    async () => {
      const settings = metaApp(meta);
      return {
        configured: settings !== null,
        appId: settings?.id ?? null,
        sdkUrl: meta.config.META_LOGIN_SDK_URL,
        graphVersion: meta.config.META_GRAPH_VERSION,
      };
    },
  );

  app.post(
    '/meta/facebook/pages',
    {
      schema: {
        summary: 'The Facebook pages (and linked Instagram accounts) a Facebook Login token manages, without their tokens',
        errors: {
          400: ['ERR_META_TOKEN_INVALID'],
          403: ['ERR_PLAN_FEATURE_DISABLED'],
          404: ['ERR_META_NOT_CONFIGURED'],
        },
        body: PagesBody,
        response: { 200: Type.Object({ pages: Type.Array(FoundPage) }), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
      config: access.permission('connections-page:addConnection'),
    },
    async (request) => {
      const settings = metaApp(meta);
      if (!settings) throw new AppError('ERR_META_NOT_CONFIGURED');
      const { companyId } = sessionOf(request);
      await meta.plans.require(companyId, 'useFacebook');
      const pages = await managedPages(meta, settings, request.body.facebookUserToken);
      const ids = pages.flatMap((page) => [page.id, page.instagram_business_account?.id ?? '']).filter(Boolean);
      const held = (await meta.db
        .knex('metaAccounts')
        .where({ companyId })
        .whereIn('externalId', ids)
        .select('channel', 'externalId')) as Array<{ channel: string; externalId: string }>;
      const mine = new Set(held.map((row) => `${row.channel}:${row.externalId}`));
      return {
        pages: pages.map((page) => {
          const instagram = page.instagram_business_account;
          return {
            id: page.id,
            name: page.name ?? page.id,
            instagram: instagram?.id ? { id: instagram.id, username: instagram.username ?? instagram.id } : null,
            connected: {
              facebook: mine.has(`facebook:${page.id}`),
              instagram: instagram?.id ? mine.has(`instagram:${instagram.id}`) : false,
            },
          };
        }),
      };
    },
  );

  app.post(
    '/facebook',
    {
      schema: {
        summary: 'Connect Facebook pages (and their Instagram accounts) from a Facebook Login token',
        errors: {
          400: ['ERR_META_TOKEN_INVALID'],
          403: ['ERR_PLAN_FEATURE_DISABLED', 'ERR_CONNECTION_PLAN_LIMIT'],
          404: ['ERR_META_NOT_CONFIGURED', 'ERR_META_PAGE_NOT_FOUND'],
          409: ['ERR_META_ACCOUNT_IN_USE'],
        },
        body: FacebookBody,
        response: { 200: Created, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
      config: access.permission('connections-page:addConnection'),
    },
    async (request) => {
      const settings = metaApp(meta);
      if (!settings) throw new AppError('ERR_META_NOT_CONFIGURED');
      const { companyId } = sessionOf(request);
      const { facebookUserToken, addInstagram = false, pageIds } = request.body;
      await meta.plans.require(companyId, 'useFacebook');
      if (addInstagram) await meta.plans.require(companyId, 'useInstagram');
      const pages = await managedPages(meta, settings, facebookUserToken);
      const chosen = pageIds ? pages.filter((page) => pageIds.includes(page.id)) : pages;
      if (chosen.length === 0 || (pageIds && chosen.length !== pageIds.length)) throw new AppError('ERR_META_PAGE_NOT_FOUND');

      // every id is checked before anything is created: one taken page refuses the whole request clearly
      const plan: Array<{ channel: 'facebook' | 'instagram'; page: GraphPage; externalId: string; name: string }> = [];
      for (const page of chosen) {
        plan.push({ channel: 'facebook', page, externalId: page.id, name: page.name ?? page.id });
        const instagram = page.instagram_business_account;
        if (addInstagram && instagram?.id)
          plan.push({
            channel: 'instagram',
            page,
            externalId: instagram.id,
            name: instagram.username ? `@${instagram.username}` : instagram.id,
          });
      }
      // a page this company holds already is done (a repeated request, or one cut short after the claim):
      // it is finished again below, idempotently, on its own connection
      const held = new Map<string, number>();
      for (const item of plan) {
        const owner = await meta.db
          .knex('metaAccounts')
          .where({ channel: item.channel, externalId: item.externalId })
          .first('companyId', 'whatsappId');
        if (owner && Number(owner.companyId) === companyId)
          held.set(`${item.channel}:${item.externalId}`, Number(owner.whatsappId));
        else await requireAccountFree(meta, item.channel, item.externalId, null);
      }

      const channels = meta.services.use('channels');
      const key = secretsKey(meta);
      const connections = [];
      for (const item of plan) {
        const token = item.page.access_token as string;
        const id =
          held.get(`${item.channel}:${item.externalId}`) ??
          (await channels.createConnection({
            companyId,
            channel: item.channel,
            name: item.name.slice(0, 100),
            channelConfig: {
              pageId: item.page.id,
              pageToken: token,
              username: item.page.instagram_business_account?.username ?? '',
            },
          }));
        // the claim comes first: a page whose subscription then fails stays this company's, unfinished
        // (not CONNECTED), and the same request again completes it instead of answering 409
        await activatePage(
          meta,
          item.channel,
          { id, companyId },
          { pageId: item.page.id, externalId: item.externalId, token, tokenSealed: seal(key, token) },
        );
        await channels.updateStatus(companyId, id, { status: 'CONNECTED', sessionError: null });
        connections.push({ id, name: item.name, channel: item.channel, number: item.externalId });
      }
      return { connections };
    },
  );
});
