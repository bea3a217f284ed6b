import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import type { EmbedKey } from '../models/embed-key';
import { Lane, TicketTagLink } from '../models/lane';
import { type BoardSlice, boardJson, listLanes, masksNumbers } from './board.service';
import { type EmbedActor, verifyUserToken } from './embed-keys.service';
import { moveTicket } from './lanes.service';
import { boardAnswerText } from './schemas';

/** What the widget shows besides its cards: the key's lanes (and the default lane when it has every lane). */
export interface EmbedBoardHead {
  name: string;
  mayMove: boolean;
  signedUsers: boolean;
  defaultLane: boolean;
  lanes: Array<{ id: number; name: string; color: string }>;
}

/**
 * The board an embed key shows, in the key's company scope, as JSON text (`{ ...head, tickets }`, and
 * the lanes' counts for a page of it: `slice`, as the board's own paging, board.service.ts). Only
 * the lanes' cards: no plain tags, no contact, user or queue ids (the `embed` card shape of board.service.ts);
 * numbers masked as for a profile user when the company hides them (LGPD). A card on lanes of which only
 * some are the key's shows in the default lane only for a key with every lane.
 */
export async function embedBoardJson(ctx: PluginContext, key: EmbedKey, slice: BoardSlice = { kind: 'all' }): Promise<string> {
  if (
    slice.kind === 'lane' &&
    !(slice.laneId === null ? key.laneIds === null : (key.laneIds ?? [slice.laneId]).includes(slice.laneId))
  ) {
    throw new AppError('ERR_NO_LANE_FOUND');
  }
  const lanes = await listLanes(ctx.db.knex, key.companyId, key.laneIds);
  const settings = await ctx.settings.all(key.companyId);
  const board = await boardJson(
    ctx.db.knex,
    key.companyId,
    null,
    { laneIds: key.laneIds },
    { mask: masksNumbers('user', settings), shape: 'embed', slice },
  );
  const head: EmbedBoardHead = {
    name: key.name,
    mayMove: key.mayMove,
    signedUsers: key.signedUsers,
    defaultLane: key.laneIds === null,
    lanes: lanes.map((lane) => ({ id: lane.id, name: lane.name, color: lane.color })),
  };
  return boardAnswerText(board, `${JSON.stringify(head).slice(1, -1)},`);
}

/**
 * A move through the widget: the key must allow moves, the ticket must be on the key's board and the
 * lane one of the key's (the default lane only for a key with every lane). In signed-user mode the
 * site's token names who moved it; a Balcão user of the same e-mail becomes the log entry's author.
 */
export async function embedMove(
  ctx: PluginContext,
  key: EmbedKey,
  move: { ticketId: number; laneId: number | null; userToken?: string },
): Promise<{ ticketId: number; laneId: number | null }> {
  if (!key.mayMove) throw new AppError('ERR_EMBED_READ_ONLY');
  let actor: EmbedActor | null = null;
  if (key.signedUsers) {
    if (!move.userToken) throw new AppError('ERR_EMBED_USER_TOKEN_REQUIRED');
    actor = verifyUserToken(key.secret, move.userToken);
  }
  const allLanes = key.laneIds === null;
  if (move.laneId === null ? !allLanes : !(allLanes || key.laneIds?.includes(move.laneId))) {
    throw new AppError('ERR_NO_LANE_FOUND');
  }
  if (move.laneId !== null && !(await Lane.lanes().findById(move.laneId))) throw new AppError('ERR_NO_LANE_FOUND');
  const ticket = await ctx.db
    .knex('tickets')
    .where({ id: move.ticketId, companyId: key.companyId })
    .whereIn('status', ['open', 'pending', 'group'])
    .first('id');
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const currentLanes = (await TicketTagLink.query()
    .where('ticketId', move.ticketId)
    .whereIn('tagId', Lane.lanes().select('id'))
    .select('tagId')) as TicketTagLink[];
  const fromLaneId = currentLanes[0]?.tagId ?? null;
  if (!allLanes && !currentLanes.some((link) => key.laneIds?.includes(link.tagId))) throw new AppError('ERR_NO_TICKET_FOUND');

  const userId = actor?.email
    ? ((await ctx.db.knex('users').where({ companyId: key.companyId }).whereRaw('lower(email) = ?', [actor.email]).first('id'))
        ?.id ?? null)
    : null;
  const { moved } = await moveTicket(ctx, key.companyId, move.ticketId, move.laneId, { userId });
  if (moved) {
    await ctx.db.knex('kanbanEmbedMoves').insert({
      companyId: key.companyId,
      ticketId: move.ticketId,
      embedKeyId: key.id,
      fromLaneId,
      toLaneId: move.laneId,
      actorSub: actor?.sub ?? null,
      actorName: actor?.name ?? null,
      userId,
    });
  }
  return { ticketId: move.ticketId, laneId: move.laneId };
}
