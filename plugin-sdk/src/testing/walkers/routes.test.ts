import { describe, expect, it } from 'vitest';
import { CORE_PERMISSION_TABLE, Id, IdParams, NoBody, NoQuery, StrictObject, Type } from '../../server';
import {
  type ContractContext,
  contractProblems,
  FixtureGapError,
  fillUrl,
  paramSource,
  parsePrintedRoutes,
  resolveParams,
  urlParams,
  type WalkedRoute,
} from './routes';

const ok = { 200: Type.Object({ ok: Type.Boolean() }) };
const context: ContractContext = {
  planFlags: new Map([
    ['kanban', 'useKanban'],
    ['tags', null],
  ]),
  permissions: { ...CORE_PERMISSION_TABLE, 'kanban:manage': ['admin'] },
};

function route(partial: Partial<WalkedRoute> & Pick<WalkedRoute, 'method' | 'url'>): WalkedRoute {
  return { owner: 'tags', schema: { response: ok }, config: { access: 'authenticated' }, ...partial };
}

describe('contractProblems', () => {
  it('accepts a complete route of each kind', () => {
    const good = [
      route({ method: 'GET', url: '/api/tags', schema: { querystring: NoQuery, response: ok } }),
      route({
        method: 'GET',
        url: '/api/tags/:tagId',
        schema: { params: StrictObject({ tagId: Id }), querystring: NoQuery, response: ok },
      }),
      route({
        method: 'POST',
        url: '/api/tags',
        schema: { body: StrictObject({ name: Type.String() }), response: { 201: ok[200] } },
      }),
      route({ method: 'POST', url: '/api/tags/sync', schema: { body: NoBody, response: { 204: Type.Null() } } }),
      route({
        method: 'DELETE',
        url: '/api/tags/:id',
        schema: { params: IdParams, response: ok },
        config: { access: 'admin', fixtureParams: { id: 'tag' } },
      }),
      route({
        method: 'GET',
        url: '/api/kanban',
        owner: 'kanban',
        schema: { querystring: NoQuery, response: ok },
        config: { access: { permission: 'kanban:manage' }, planFlag: 'useKanban' },
      }),
      route({ method: 'GET', url: '/api/docs/static/*', owner: 'core', schema: {}, config: { access: 'public', infra: true } }),
    ];
    for (const r of good) expect(contractProblems(r, context)).toEqual([]);
  });

  const bad: Array<[string, WalkedRoute, RegExp]> = [
    [
      'no access',
      route({ method: 'GET', url: '/api/tags', config: {}, schema: { querystring: NoQuery, response: ok } }),
      /declares no config\.access/,
    ],
    [
      'an unknown access word',
      route({
        method: 'GET',
        url: '/api/tags',
        config: { access: 'everyone' as never },
        schema: { querystring: NoQuery, response: ok },
      }),
      /is not an access rule/,
    ],
    [
      'an undefined permission',
      route({
        method: 'GET',
        url: '/api/tags',
        config: { access: { permission: 'tags:nope' } },
        schema: { querystring: NoQuery, response: ok },
      }),
      /permission 'tags:nope', which no feature defines/,
    ],
    [
      'a path parameter without params schema',
      route({ method: 'DELETE', url: '/api/tags/:tagId' }),
      /has path parameters \(:tagId\) but no schema\.params/,
    ],
    [
      'a params schema missing one',
      route({ method: 'DELETE', url: '/api/tags/:tagId/:userId', schema: { params: StrictObject({ tagId: Id }), response: ok } }),
      /does not declare :userId/,
    ],
    [
      'a params schema declaring too many',
      route({
        method: 'DELETE',
        url: '/api/tags/:tagId',
        schema: { params: StrictObject({ tagId: Id, other: Id }), response: ok },
      }),
      /declares other, which the URL doesn't have/,
    ],
    ['no response schema', route({ method: 'DELETE', url: '/api/tags', schema: {} }), /no schema\.response/],
    [
      'only error responses',
      route({ method: 'DELETE', url: '/api/tags', schema: { response: { 404: Type.Object({}) } } }),
      /no schema\.response/,
    ],
    [
      'a POST without body schema',
      route({ method: 'POST', url: '/api/tags' }),
      /no schema\.body: declare the body it reads, or NoBody/,
    ],
    ['a PATCH without body schema', route({ method: 'PATCH', url: '/api/tags' }), /no schema\.body/],
    [
      'a GET with a body',
      route({ method: 'GET', url: '/api/tags', schema: { body: NoBody, querystring: NoQuery, response: ok } }),
      /cannot take a body/,
    ],
    [
      'a GET without querystring schema',
      route({ method: 'GET', url: '/api/tags' }),
      /no schema\.querystring: declare the query it reads, or NoQuery/,
    ],
    [
      'a querystring that is no object',
      route({ method: 'GET', url: '/api/tags', schema: { querystring: Type.String(), response: ok } }),
      /must be an object schema/,
    ],
    [
      'a gated plugin route without the flag',
      route({ method: 'DELETE', url: '/api/kanban', owner: 'kanban' }),
      /gated by useKanban but requires no plan flag/,
    ],
    [
      'a gated plugin route with another flag',
      route({ method: 'DELETE', url: '/api/kanban', owner: 'kanban', config: { access: 'admin', planFlag: 'useOpenAi' } }),
      /gated by useKanban but requires useOpenAi/,
    ],
    [
      'an unknown plan flag',
      route({ method: 'DELETE', url: '/api/tags', config: { access: 'admin', planFlag: 'useTeleport' as never } }),
      /'useTeleport' is not a plan flag/,
    ],
    [
      'a feature route claiming infra',
      route({ method: 'GET', url: '/api/tags/*', config: { access: 'public', infra: true } }),
      /only the core may mark a route config\.infra/,
    ],
    [
      'a non-public infra route',
      route({ method: 'GET', url: '/x/*', owner: 'core', config: { access: 'authenticated', infra: true } }),
      /access must be public/,
    ],
    [
      'a fixtureParams key that is no parameter',
      route({ method: 'DELETE', url: '/api/tags', config: { access: 'admin', fixtureParams: { id: 'tag' } } }),
      /maps 'id', which is not a path parameter/,
    ],
  ];
  it.each(bad)('fails a route with %s, naming it', (_label, r, message) => {
    const problems = contractProblems(r, context);
    expect(problems.join('\n')).toMatch(message);
    for (const problem of problems) expect(problem.startsWith(`${r.method} ${r.url} (owner ${r.owner}): `)).toBe(true);
  });

  it('exempts infra routes from the schema rules only', () => {
    const infra = route({
      method: 'GET',
      url: '/plugins/x/*',
      owner: 'core',
      schema: undefined,
      config: { access: 'public', infra: true },
    });
    expect(contractProblems(infra, context)).toEqual([]);
    expect(contractProblems({ ...infra, config: { infra: true } }, context).join()).toMatch(/declares no config\.access/);
  });
});

describe('path parameters and fixtures', () => {
  const withParams = (url: string, fixtureParams?: Record<string, string>) =>
    route({ method: 'GET', url, config: { access: 'authenticated', ...(fixtureParams ? { fixtureParams } : {}) } });

  it('lists URL parameters, wildcard last', () => {
    expect(urlParams('/api/a/:ticketId/b/:messageId')).toEqual(['ticketId', 'messageId']);
    expect(urlParams('/plugins/x/*')).toEqual(['*']);
    expect(urlParams('/api/a')).toEqual([]);
  });

  it('maps parameters by config, then by name', () => {
    const r = withParams('/api/x/:id/:companyId/:userId/:ticketId/:queue_id/:key/:status/:planId/:uuid/:ticketUuid', {
      id: 'helloNote',
      status: '=open',
      planId: 'shared:plan',
    });
    expect(paramSource(r, 'id')).toEqual({ kind: 'tenant', entity: 'helloNote' });
    expect(paramSource(r, 'companyId')).toEqual({ kind: 'tenant', entity: 'company' });
    expect(paramSource(r, 'userId')).toEqual({ kind: 'tenant', entity: 'user' });
    expect(paramSource(r, 'ticketId')).toEqual({ kind: 'tenant', entity: 'ticket' });
    expect(paramSource(r, 'queue_id')).toEqual({ kind: 'tenant', entity: 'queue' });
    expect(paramSource(r, 'key')).toEqual({ kind: 'free' });
    expect(paramSource(r, 'status')).toEqual({ kind: 'literal', value: 'open' });
    expect(paramSource(r, 'planId')).toEqual({ kind: 'shared', entity: 'plan' });
    expect(paramSource(r, 'uuid')).toEqual({ kind: 'unmapped' });
    expect(paramSource(r, 'ticketUuid')).toEqual({ kind: 'tenant', entity: 'ticketUuid' });
  });

  it('resolves ids of company A and fills the URL', () => {
    const r = withParams('/api/tickets/:ticketId/:key/:planId', { planId: 'shared:plan' });
    const resolved = resolveParams(r, { ticket: 12, plan: 3 }, () => 'a b');
    expect(resolved).toEqual({ params: { ticketId: '12', key: 'a b', planId: '3' }, tenant: ['ticketId'] });
    expect(fillUrl(r.url, resolved.params)).toBe('/api/tickets/12/a%20b/3');
    expect(fillUrl('/api/x/:a', { a: '%ED%A0%80' }, new Set(['a']))).toBe('/api/x/%ED%A0%80');
    expect(fillUrl('/x/*', { '*': 'a/b.js' })).toBe('/x/a/b.js');
  });

  it('fails loudly for an id nobody seeds, telling the feature author what to extend', () => {
    const r = withParams('/api/tickets/:ticketId');
    expect(() => resolveParams(r, { company: 1 }, () => 'x')).toThrow(FixtureGapError);
    expect(() => resolveParams(r, { company: 1 }, () => 'x')).toThrow(
      /GET \/api\/tickets\/:ticketId \(owner tags\): path parameter :ticketId refers to fixture entity 'ticket', which no feature seeds\. .*seed: \{ fixtures \}/,
    );
  });

  it('fails loudly for a bare :id without fixtureParams', () => {
    expect(() => resolveParams(withParams('/api/notes/:id'), { note: 1 }, () => 'x')).toThrow(
      /:id does not say which fixture entity it is\. Declare config\.fixtureParams: \{ id: '<entity>' \}/,
    );
  });
});

describe('parsePrintedRoutes', () => {
  it('reads the nested tree Fastify prints, without HEAD twins', () => {
    const printed = [
      '├── /api/auth/login (POST)',
      '├── /api/hello-notes (GET, HEAD, POST)',
      '│   └── /:id (GET, HEAD)',
      '├── /api/docs (GET, HEAD)',
      '│   └── / (GET, HEAD)',
      '│       ├── static/index.html (GET, HEAD)',
      '│       └── json (GET, HEAD)',
      '└── /healthz (GET, HEAD)',
    ].join('\n');
    expect(parsePrintedRoutes(printed)).toEqual([
      'POST /api/auth/login',
      'GET /api/hello-notes',
      'POST /api/hello-notes',
      'GET /api/hello-notes/:id',
      'GET /api/docs',
      'GET /api/docs/',
      'GET /api/docs/static/index.html',
      'GET /api/docs/json',
      'GET /healthz',
    ]);
  });
});
