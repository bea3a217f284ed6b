import { ErrorResponse, Id, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';

/** `{ 400: ErrorResponse, 404: … }` for the statuses a route may refuse with (for the API docs). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

export const Empty = Type.Null();

export const SearchQuery = StrictObject({
  searchParam: Type.Optional(Type.String({ maxLength: 200 })),
  pageNumber: Type.Optional(PageNumber),
});

export const IntegrationTypeSchema = Type.Union([
  Type.Literal('dialogflow'),
  Type.Literal('n8n'),
  Type.Literal('webhook'),
  Type.Literal('typebot'),
  Type.Literal('flowbuilder'),
]);

const Text = (maxLength: number) => Type.String({ maxLength });

/** POST and PUT /queueIntegration (docs/product/automation.md#entities "Queue integration"). */
export const IntegrationBody = StrictObject({
  type: IntegrationTypeSchema,
  name: Type.String({ minLength: 1, maxLength: 100 }),
  projectName: Type.Optional(Text(100)),
  jsonContent: Type.Optional(Text(20_000)),
  language: Type.Optional(Text(10)),
  urlN8N: Type.Optional(Text(2_000)),
  typebotDelayMessage: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
  typebotExpires: Type.Optional(Type.Integer({ minimum: 0, maximum: 525_600 })),
  typebotKeywordFinish: Type.Optional(Text(100)),
  typebotKeywordRestart: Type.Optional(Text(100)),
  typebotRestartMessage: Type.Optional(Text(4_000)),
  typebotSlug: Type.Optional(Text(200)),
  typebotUnknownMessage: Type.Optional(Text(4_000)),
  /** The flow a `flowbuilder` integration starts: one of the company's flows (the other types keep none). */
  flowId: Type.Optional(Type.Union([Id, Type.Null()])),
});

export const IntegrationSchema = Type.Object(
  {
    id: Type.Integer(),
    type: IntegrationTypeSchema,
    name: Type.String(),
    projectName: Type.String(),
    jsonContent: Type.String(),
    hasJsonContent: Type.Boolean(),
    language: Type.String(),
    urlN8N: Type.String(),
    typebotDelayMessage: Type.Integer(),
    typebotExpires: Type.Integer(),
    typebotKeywordFinish: Type.String(),
    typebotKeywordRestart: Type.String(),
    typebotRestartMessage: Type.String(),
    typebotSlug: Type.String(),
    typebotUnknownMessage: Type.String(),
    flowId: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'QueueIntegration' },
);

/** POST /queueIntegration/testSession: the spec's three fields, or a stored integration's credentials. */
export const TestSessionBody = StrictObject({
  projectName: Type.Optional(Text(100)),
  jsonContent: Type.Optional(Text(20_000)),
  language: Type.Optional(Text(10)),
  /** A stored DialogFlow integration whose service account is used when jsonContent is empty. */
  integrationId: Type.Optional(Id),
  /** The text sent (default "Olá"). */
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 1_000 })),
});

export const TestSessionAnswer = Type.Object({ ok: Type.Boolean(), messages: Type.Array(Type.String()) });

export const FlowCampaignSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    flowId: Type.Integer(),
    whatsappId: Type.Union([Type.Integer(), Type.Null()]),
    phrase: Type.String(),
    status: Type.Boolean(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'FlowCampaign' },
);

const CampaignFields = {
  name: Type.String({ maxLength: 100 }),
  flowId: Id,
  whatsappId: Id,
  phrase: Type.String({ maxLength: 1_000 }),
};

export const FlowCampaignCreateBody = StrictObject({ ...CampaignFields, status: Type.Optional(Type.Boolean()) });
export const FlowCampaignUpdateBody = StrictObject({ id: Id, ...CampaignFields, status: Type.Boolean() });
