import type { InboxService, SessionUser } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/** The statuses whose tickets are on the board: the work in progress (closed tickets leave it). */
export const BOARD_STATUSES = ['open', 'pending', 'group'] as const;
/** Most cards the whole-board answer carries (the bench board has 5,000); pages reach every card. */
export const BOARD_LIMIT = 10_000;

/** A lane as `GET /tag/kanban` lists it: the tag's kanban fields and how many tickets carry it. */
export interface LaneJson {
  id: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  timeLane: number | null;
  nextLaneId: number | null;
  greetingMessageLane: string | null;
  rollbackLaneId: number | null;
  ticketTags: number;
}

/** The company's lanes by name, with their ticket counts. */
export async function listLanes(knex: Knex, companyId: number, onlyIds?: number[] | null): Promise<LaneJson[]> {
  const query = knex('tags as t')
    .where({ 't.companyId': companyId, 't.kanban': 1 })
    .select(
      't.id',
      't.name',
      't.color',
      't.kanban',
      't.timeLane',
      't.nextLaneId',
      't.greetingMessageLane',
      't.rollbackLaneId',
      knex.raw('(SELECT count(*)::int FROM ticket_tags tt WHERE tt.tag_id = t.id) AS ticket_tags'),
    )
    .orderBy([{ column: 't.name' }, { column: 't.id' }]);
  if (onlyIds) query.whereIn('t.id', onlyIds);
  return (await query) as LaneJson[];
}

/**
 * Narrows a query of the board's tickets (`tickets` aliased `alias`) to those the viewing user may see:
 * the inbox's rule itself (docs/product/roles-and-permissions.md#roles-in-the-inbox), applied by the
 * inbox through the SDK, so the board shows exactly the tickets the inbox lets the user open.
 */
export type BoardVisibility = (query: Knex.QueryBuilder, alias: string) => void;

/** The board visibility of a session user: what `InboxService.canSeeTicket` allows them, as SQL. */
export function boardVisibilityOf(inbox: InboxService, user: SessionUser): BoardVisibility {
  return (query, alias) => {
    inbox.whereCanSeeTicket(query, user, alias);
  };
}

export interface BoardFilter {
  /** Only tickets of these queues (the documented client sends the user's queue ids). */
  queueIds?: number[];
  /** Creation day range, `YYYY-MM-DD`, inclusive. */
  startDate?: string;
  endDate?: string;
  /** Only tickets in these lanes, shown in one of them (an embed key's pipeline); null or absent: every ticket. */
  laneIds?: number[] | null;
}

/** The card shapes the SQL builds: the board's (every field) and the embed's (only what a widget shows). */
export type CardShape = 'board' | 'embed';

/**
 * Which cards an answer carries: the whole board (the documented answer: newest activity first, at most
 * BOARD_LIMIT), the first `perLane` cards of every lane with every lane's count (what the board loads
 * first), or `limit` cards of one lane from `offset` with that lane's count (what it loads on scroll).
 * Lane `null` is the default lane.
 */
export type BoardSlice =
  | { kind: 'all' }
  | { kind: 'head'; perLane: number }
  | { kind: 'lane'; laneId: number | null; offset: number; limit: number };

/** The most cards a page of the board (a `head` or a `lane` slice) asks for per lane. */
export const PAGE_LIMIT = 500;

/** An answer's parts as JSON text: the cards, and for a page the lanes' counts (`[{ laneId, count }]`). */
export interface BoardJson {
  tickets: string;
  laneCounts: string | null;
}

/** `contact.number`, masked in SQL when `mask` (LGPD: only the last 2 digits; groups never). */
const NUMBER_SQL = `CASE WHEN ?::boolean AND NOT c.is_group AND c.number IS NOT NULL
  THEN repeat('*', greatest(length(c.number) - 2, 0)) || right(c.number, 2) ELSE c.number END`;

/** The lane a card shows in (whole board): the one it entered last when it still carries it, else its lowest lane. */
const LANE_SQL = 'CASE WHEN pl.lane_id = ANY(g.lane_ids) THEN pl.lane_id ELSE g.lane_ids[1] END';

const UPDATED_AT_SQL = `to_char(b.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A card's columns, named as the API names its fields: `json_agg` of these rows writes the cards
 * (compact JSON). `lane` is the SQL of the card's lane. One binding: the mask flag of NUMBER_SQL.
 */
function cardColumns(shape: CardShape, lane: string): string {
  return shape === 'board'
    ? `b.id, b.uuid, b.status, b.channel,
    (SELECT to_json(x) FROM (SELECT c.id, c.name, ${NUMBER_SQL} AS number, c.is_group AS "isGroup") x) AS contact,
    b.last_message AS "lastMessage", b.unread_messages AS "unreadMessages", ${UPDATED_AT_SQL} AS "updatedAt",
    NULL::json AS whatsapp,
    CASE WHEN u.id IS NULL THEN NULL ELSE (SELECT to_json(x) FROM (SELECT u.id, u.name) x) END AS "user",
    b.queue_id AS "queueId", coalesce(g.tags, '[]'::json) AS tags, ${lane} AS "laneId"`
    : // a widget shows the cards of its lanes only: no plain tags, no contact, user or queue ids
      `b.id, b.uuid, b.status, b.channel,
    (SELECT to_json(x) FROM (SELECT 0 AS id, c.name, ${NUMBER_SQL} AS number, c.is_group AS "isGroup") x) AS contact,
    b.last_message AS "lastMessage", b.unread_messages AS "unreadMessages", ${UPDATED_AT_SQL} AS "updatedAt",
    NULL::json AS whatsapp,
    CASE WHEN u.id IS NULL THEN NULL ELSE (SELECT to_json(x) FROM (SELECT 0 AS id, u.name) x) END AS "user",
    NULL::int AS "queueId", '[]'::json AS tags, ${lane} AS "laneId"`;
}

/** The tickets on a viewer's board with the filters applied (no order: each statement orders its own). */
function boardTickets(
  knex: Knex,
  companyId: number,
  visibility: BoardVisibility | null,
  filter: BoardFilter,
  columns: string[],
): Knex.QueryBuilder {
  const board = knex('tickets as t').where('t.companyId', companyId).whereIn('t.status', BOARD_STATUSES).select(columns);
  visibility?.(board, 't');
  if (filter.queueIds) board.whereIn('t.queueId', filter.queueIds);
  if (filter.startDate) board.where('t.createdAt', '>=', filter.startDate);
  if (filter.endDate) board.whereRaw("t.created_at < (?::date + interval '1 day')", [filter.endDate]);
  if (filter.laneIds) {
    board.whereExists(
      knex('ticketTags as lt')
        .whereRaw('lt.ticket_id = t.id')
        .whereIn('lt.tagId', filter.laneIds.length ? filter.laneIds : [0]),
    );
  }
  return board;
}

/**
 * The board's cards as JSON text, built by Postgres in one statement (a board is thousands of cards read
 * on every reload: building the JSON in the database and sending it as it is costs a fraction of mapping
 * and re-serialising rows in Node, bench/kanban.ts). `slice` says which cards (BoardSlice); `visibility`
 * null: no user (an embed key), every ticket of the company.
 */
export async function boardJson(
  knex: Knex,
  companyId: number,
  visibility: BoardVisibility | null,
  filter: BoardFilter,
  options: { mask: boolean; shape: CardShape; slice: BoardSlice },
): Promise<BoardJson> {
  if (options.slice.kind === 'all') {
    return { tickets: await wholeBoardJson(knex, companyId, visibility, filter, options), laneCounts: null };
  }
  return boardPageJson(knex, companyId, visibility, filter, { ...options, slice: options.slice });
}

/** The whole board (the documented answer), newest activity first, at most BOARD_LIMIT cards. */
async function wholeBoardJson(
  knex: Knex,
  companyId: number,
  visibility: BoardVisibility | null,
  filter: BoardFilter,
  options: { mask: boolean; shape: CardShape },
): Promise<string> {
  const board = boardTickets(knex, companyId, visibility, filter, [
    't.id',
    't.uuid',
    't.status',
    't.channel',
    't.lastMessage',
    't.unreadMessages',
    't.updatedAt',
    't.queueId',
    't.contactId',
    't.userId',
  ])
    .orderBy([
      { column: 't.updatedAt', order: 'desc' },
      { column: 't.id', order: 'desc' },
    ])
    .limit(BOARD_LIMIT);
  // the page of tickets first (materialised: its row count is what the plan below should count on), then
  // per card: its contact by primary key, its tags (each tag's JSON built once), its lane entry
  const sql = `WITH b AS MATERIALIZED (?),
    tj AS MATERIALIZED (
      SELECT x.id, x.kanban, to_json(x) AS j FROM (SELECT id, name, color, kanban FROM tags WHERE company_id = ?) x),
    g AS (
      SELECT tt.ticket_id, json_agg(tj.j ORDER BY tj.kanban DESC, tj.id) AS tags,
        array_agg(tj.id ORDER BY tj.id) FILTER (WHERE tj.kanban = 1 AND (?::int[] IS NULL OR tj.id = ANY(?::int[]))) AS lane_ids
      FROM ticket_tags tt JOIN tj ON tj.id = tt.tag_id
      WHERE tt.ticket_id IN (SELECT id FROM b)
      GROUP BY tt.ticket_id)
    SELECT coalesce(json_agg(card), '[]')::text AS cards FROM (
      SELECT ${cardColumns(options.shape, LANE_SQL)}
      FROM b
      JOIN LATERAL (SELECT c.id, c.name, c.number, c.is_group FROM contacts c WHERE c.id = b.contact_id) c ON true
      LEFT JOIN users u ON u.id = b.user_id
      LEFT JOIN kanban_placements pl ON pl.ticket_id = b.id
      LEFT JOIN g ON g.ticket_id = b.id
      -- json_agg takes the rows in this order (Postgres aggregates a sorted subquery's rows in order)
      ORDER BY b.updated_at DESC, b.id DESC) card`;
  // bindings in order: the page's statement, the company of the tags, the lanes a card may show in
  // (twice), the mask flag of NUMBER_SQL
  const shownLanes = filter.laneIds ?? null;
  const result = await knex.raw(sql, [board, companyId, shownLanes, shownLanes, options.mask]);
  return (result.rows[0] as { cards: string }).cards;
}

/**
 * A page of the board: the lane of every card on the board is worked out from the ticket ids alone
 * (ids, times and lane tags: no card is built for it), the cards are numbered within their lane (newest
 * activity first), and only the page's cards are built as JSON, with the lanes' counts. The board is
 * not capped at BOARD_LIMIT here: every card is reachable page by page.
 */
async function boardPageJson(
  knex: Knex,
  companyId: number,
  visibility: BoardVisibility | null,
  filter: BoardFilter,
  options: { mask: boolean; shape: CardShape; slice: Exclude<BoardSlice, { kind: 'all' }> },
): Promise<BoardJson> {
  const { slice } = options;
  const board = boardTickets(knex, companyId, visibility, filter, ['t.id', 't.updatedAt']);
  const shownLanes = filter.laneIds ?? null;
  // lanes are keyed by id, the default lane by 0 (tag ids start at 1)
  const onlyLane = slice.kind === 'lane' ? (slice.laneId ?? 0) : null;
  const [from, to] = slice.kind === 'lane' ? [slice.offset, slice.offset + slice.limit] : [0, slice.perLane];
  // the default lane exists on boards of every lane (not on an embed key's pipeline)
  const withDefault = shownLanes === null;
  const sql = `WITH visible AS MATERIALIZED (?),
    lanes AS MATERIALIZED (
      SELECT id FROM tags WHERE company_id = ? AND kanban = 1 AND (?::int[] IS NULL OR id = ANY(?::int[]))),
    -- a card's lane: the one it entered last when it still carries it, else its lowest lane, else the default
    placed AS (
      SELECT DISTINCT ON (v.id) v.id, v.updated_at, coalesce(tt.tag_id, 0) AS lane
      FROM visible v
      LEFT JOIN ticket_tags tt ON tt.ticket_id = v.id AND tt.tag_id IN (SELECT id FROM lanes)
      LEFT JOIN kanban_placements pl ON pl.ticket_id = v.id
      ORDER BY v.id, (tt.tag_id = pl.lane_id) DESC NULLS LAST, tt.tag_id),
    ranked AS MATERIALIZED (
      SELECT id, lane, row_number() OVER (PARTITION BY lane ORDER BY updated_at DESC, id DESC) AS n
      FROM placed WHERE ?::int IS NULL OR lane = ?::int),
    page AS MATERIALIZED (SELECT id, lane FROM ranked WHERE n > ? AND n <= ?),
    tj AS MATERIALIZED (
      SELECT x.id, x.kanban, to_json(x) AS j FROM (SELECT id, name, color, kanban FROM tags WHERE company_id = ?) x),
    counts AS (SELECT lane, count(*)::int AS count FROM ranked GROUP BY lane),
    keys AS (
      SELECT id FROM lanes WHERE ?::int IS NULL OR id = ?::int
      UNION ALL SELECT 0 WHERE ?::boolean AND (?::int IS NULL OR ?::int = 0))
    SELECT
      (SELECT coalesce(json_agg(card), '[]') FROM (
        SELECT ${cardColumns(options.shape, 'nullif(p.lane, 0)')}
        FROM page p
        -- the card's ticket (named b, as cardColumns reads it)
        JOIN tickets b ON b.id = p.id
        JOIN LATERAL (SELECT c.id, c.name, c.number, c.is_group FROM contacts c WHERE c.id = b.contact_id) c ON true
        LEFT JOIN users u ON u.id = b.user_id
        -- a page's few hundred cards: each card's tags by its own index scan (a grouped join of them is
        -- planned as a rescan per card when the page's size is misjudged)
        LEFT JOIN LATERAL (
          SELECT json_agg(tj.j ORDER BY tj.kanban DESC, tj.id) AS tags
          FROM ticket_tags tt JOIN tj ON tj.id = tt.tag_id WHERE tt.ticket_id = p.id) g ON true
        -- json_agg takes the rows in this order (Postgres aggregates a sorted subquery's rows in order)
        ORDER BY b.updated_at DESC, b.id DESC) card)::text AS tickets,
      (SELECT coalesce(json_agg(json_build_object('laneId', nullif(k.id, 0), 'count', coalesce(n.count, 0)) ORDER BY k.id), '[]')
        FROM keys k LEFT JOIN counts n ON n.lane = k.id)::text AS "laneCounts"`;
  // bindings in the order of the statement
  const result = await knex.raw(sql, [
    board,
    companyId,
    shownLanes,
    shownLanes,
    onlyLane,
    onlyLane,
    from,
    to,
    companyId,
    onlyLane,
    onlyLane,
    withDefault,
    onlyLane,
    onlyLane,
    options.mask,
  ]);
  return result.rows[0] as BoardJson;
}

/** Whether a viewer's numbers are masked: profile users when LGPD and hide-number are enabled (docs/product/roles-and-permissions.md#roles-in-the-inbox). */
export function masksNumbers(profile: 'admin' | 'user', settings: Record<string, string>): boolean {
  return profile === 'user' && settings.enableLGPD === 'enabled' && settings.lgpdHideNumber === 'enabled';
}
