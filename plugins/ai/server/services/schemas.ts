import { ErrorResponse, Id, StrictObject, type TSchema, Type } from '@balcao/plugin-sdk/server';
import { VOICES } from '../../shared/voices';

/** `{ 400: ErrorResponse, 404: … }` for the statuses a route may refuse with (for the API docs). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const VoiceSchema = Type.Union(VOICES.map((voice) => Type.Literal(voice)));

const promptFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  prompt: Type.String({ minLength: 1, maxLength: 20_000 }),
  // absent or null: refused with "Informe o setor" (ERR_PROMPT_QUEUE_REQUIRED), not a bare validation error
  queueId: Type.Optional(Nullable(Id)),
  voice: Type.Optional(VoiceSchema),
  voiceKey: Type.Optional(Type.String({ maxLength: 500 })),
  voiceRegion: Type.Optional(Type.String({ maxLength: 40, pattern: '^[a-z0-9-]*$' })),
  maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
  maxMessages: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  baseUrl: Type.Optional(Type.String({ maxLength: 500, pattern: '^https?://' })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
};

/** POST /prompt: a new prompt; its API key is required (blank: ERR_PROMPT_API_KEY_REQUIRED). */
export const PromptCreateBody = StrictObject({ ...promptFields, apiKey: Type.Optional(Type.String({ maxLength: 500 })) });

/** PUT /prompt/:id: the same fields; an absent or blank `apiKey` (or `voiceKey`) keeps the stored one. */
export const PromptUpdateBody = PromptCreateBody;

export const PromptSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    prompt: Type.String(),
    queueId: Id,
    queue: Nullable(Type.Object({ id: Id, name: Type.String() })),
    voice: Type.String(),
    voiceRegion: Type.String(),
    maxTokens: Type.Integer(),
    temperature: Type.Number(),
    maxMessages: Type.Integer(),
    baseUrl: Type.String(),
    model: Type.String(),
    /** The key masked (its last four characters); the key itself never leaves the server. */
    apiKey: Type.String(),
    voiceKey: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'Prompt' },
);

export const UsageQuery = StrictObject({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 92 })) });

export const UsageSchema = Type.Object({
  days: Type.Array(
    Type.Object({
      day: Type.String(),
      promptId: Type.Integer(),
      tokensIn: Type.Integer(),
      tokensOut: Type.Integer(),
      requests: Type.Integer(),
    }),
  ),
  month: Type.Object({ tokensIn: Type.Integer(), tokensOut: Type.Integer() }),
  monthlyTokenCap: Nullable(Type.Integer()),
});

export const CapBody = StrictObject({ monthlyTokenCap: Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000_000_000 })) });

export const FileNameParams = StrictObject({
  fileName: Type.String({ minLength: 1, maxLength: 2000, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' }),
});
