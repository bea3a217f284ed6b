import { AppError, access, defineRoutes, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { boardJson, boardVisibilityOf, masksNumbers } from '../services/board.service';
import {
  BoardPageQuery,
  boardAnswerText,
  boardSliceOf,
  KanbanTicketSchema,
  LaneCountSchema,
  sendBoardText,
} from '../services/schemas';

/** A JSON array of ids in one query parameter, as the documented client sends it: `queueIds=[1,2]`. */
const IdListParam = Type.String({ pattern: '^\\[\\s*(\\d{1,10}\\s*(,\\s*\\d{1,10}\\s*)*)?\\]$', maxLength: 4_000 });
/** A calendar day. */
const Day = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$' });

function idList(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const ids = JSON.parse(text) as number[];
  if (ids.some((id) => id < 1 || id > 2_147_483_647)) {
    throw new AppError('ERR_VALIDATION', { details: [{ field: 'querystring.queueIds', message: 'must be ids' }] });
  }
  return [...new Set(ids)];
}

/**
 * The board's cards (docs/product/administration.md#calls-and-realtime-events `GET /ticket/kanban` with queueIds, startDate, endDate): the
 * whole board as documented, or, with the optional paging parameters (docs/kanban.md "Pages"), the
 * first cards of every lane with the lanes' counts, or a slice of one lane — what the board loads.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/ticket/kanban',
    {
      schema: {
        summary: 'List tickets on the kanban lanes',
        errors: {},
        querystring: StrictObject({
          queueIds: Type.Optional(IdListParam),
          startDate: Type.Optional(Day),
          endDate: Type.Optional(Day),
          ...BoardPageQuery,
        }),
        response: {
          200: Type.Object({ tickets: Type.Array(KanbanTicketSchema), laneCounts: Type.Optional(Type.Array(LaneCountSchema)) }),
          304: Type.Null(),
        },
      },
      config: access.authenticated,
    },
    async (request, reply) => {
      const user = await ctx.access.sessionUser(request);
      const { startDate, endDate } = request.query;
      if (startDate && endDate && startDate > endDate) {
        throw new AppError('ERR_VALIDATION', {
          details: [{ field: 'querystring.endDate', message: 'must not be before startDate' }],
        });
      }
      const slice = boardSliceOf(request.query);
      const settings = await ctx.settings.all(user.companyId);
      const board = await boardJson(
        ctx.db.knex,
        user.companyId,
        boardVisibilityOf(ctx.services.use('inbox'), user),
        { queueIds: idList(request.query.queueIds), startDate, endDate },
        { mask: masksNumbers(user.profile, settings), shape: 'board', slice },
      );
      // the JSON is built by Postgres (services/board.service.ts): sent as it is, not parsed and serialised again
      return sendBoardText(request, reply, boardAnswerText(board));
    },
  );
});
