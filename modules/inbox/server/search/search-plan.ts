import type { Knex } from 'knex';
import { rawRows, type Statement } from '../prepared';
import { wordHitsSql } from './search-sql';

/**
 * The search planner of `GET /tickets` (docs/inbox-api.md "Tickets"): how a search text is matched —
 * contact name, number digits, ticket id, and message contents through the tickets' words, the messages'
 * trigram index or a probe of each walked ticket — chosen by counting what the text finds.
 */

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** How a text search is run (see `planSearch`). */
export interface SearchPlan {
  /** The text as typed (NULs removed, trimmed). */
  text: string;
  pattern: string;
  /** The number's digits as a pattern, when the text looks like a phone number. */
  numberPattern: string | null;
  /** The text as a ticket id, when it is one. */
  ticketId: number | null;
  /**
   * The LIKE pattern the messages' trigram index is asked for instead of the whole text's (`indexKeyOf`,
   * `prefixKeyOf`), the whole text then checked on what it finds; null: the whole text's.
   */
  indexKey: string | null;
  /**
   * Message contents: not searched (`none`); the ids of the tickets whose messages match gathered once
   * (see `source`) and read (`index`: a rare text); the same ids gathered, then the visible tickets checked
   * against them — walked in list order for an admin, each part of an agent's lists read whole and joined
   * (`gather`: a text in a thousand to a few thousand tickets, which would cost more to read than to walk
   * past); or
   * the visible tickets walked in list order, each probed until the page and the count are full (`probe`: a
   * common or medium text, most walked tickets match). A probe reads the ticket's search document
   * (migration 0002) — one or two short rows — or, when deleted messages must be left out (LGPD) or the
   * text holds the documents' separator, the ticket's messages (`probe-messages`).
   */
  messages: 'none' | 'index' | 'gather' | 'probe' | 'probe-messages';
  /**
   * Where `index` and `gather` read the tickets whose messages match: the tickets' words (`words`, migration
   * 0004: an index-only scan of the words that contain the text, see `searchesWords`), or the messages
   * themselves through their trigram index, each checked (`messages`: a text of several words, a short or
   * long one, or deleted messages to leave out).
   */
  source: 'words' | 'messages';
}

/**
 * How a message search is run, by how many messages match its text (counted, see `countedMessageMatches`):
 * up to `gatherAboveMessages` their tickets are read (`index`), up to `probeAboveMessages` the visible tickets
 * are walked past their ids (`gather`), above it each walked ticket is probed (`probe`); a text looked up in the
 * tickets' words (`searchesWords`) is counted in tickets instead, against `gatherAboveTickets` and
 * `probeAboveTickets` (gathering costs a key a ticket there: "estorno"'s 9,349 tickets still probe faster). Measured on the bench
 * data set (docs/benchmarks.md, "Inbox"): the trigram index costs about 2–4 µs per matching message, reading
 * a ticket about 2 µs, walking past one on an index well under 1 µs, probing a search document 1–2 µs; a walk
 * stops after SEARCH_COUNT_LIMIT matches. `recentWindow`: how many of a profile user's newest visible
 * tickets a walk merges first (see `listTickets`), enough for a text in one ticket out of fifteen to fill
 * the count's cap. Tests lower them to reach every path with a few rows.
 */
export const SEARCH_TUNING = {
  gatherAboveMessages: 1_000,
  probeAboveMessages: 4_000,
  gatherAboveTickets: 1_000,
  probeAboveTickets: 4_000,
  recentWindow: 1_500,
};
/** A text search counts up to this many tickets (docs/inbox-api.md): exact below it. */
export const SEARCH_COUNT_LIMIT = 100;
/** The separator of the search documents' messages (migration 0002). */
const DOC_SEPARATOR = '\u0001';

/** How a recent text was searched, per company and text: a stale choice only costs speed. */
const strategies = new Map<
  string,
  { messages: 'index' | 'gather' | 'probe'; indexKey: string | null; source: SearchPlan['source']; until: number }
>();
const STRATEGY_CACHE_SIZE = 1_000;
const STRATEGY_CACHE_MS = 60_000;

/**
 * The part of a search text the messages' trigram index is asked for: a number of five digits or more in a
 * text of several words (a protocol, an order), else the whole text (or a word's prefix, `prefixKeyOf`). The
 * index's cost is that of the commonest trigram it must intersect ("protocolo 06855387": ~4.7 ms; "06855387":
 * ~0.5 ms on the bench data set), and such a number is far rarer than the words around it; the whole text is
 * checked on what it finds. Null: the whole text.
 */
export function indexKeyOf(text: string): string | null {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 2) return null;
  const numbers = words.filter((word) => (word.match(/\d/g)?.length ?? 0) >= 5).sort((a, b) => b.length - a.length);
  return numbers[0] ?? null;
}

/** How many characters of a long word `prefixKeyOf` takes (four trigrams). */
const PREFIX_KEY_LENGTH = 6;

/**
 * A candidate key for the messages' trigram index: the first six characters of the text's longest word,
 * when it has eight or more. The index intersects every trigram of what it is asked for, and the dearest are
 * the commonest: in Portuguese those of word endings ("-ador", "-ado", "-ção"). On the bench data set
 * "%liquidificador%" costs the index ~2.7 ms and "%liquid%" ~0.4 ms, for the same 1,644 messages. A prefix
 * can be common ("inform…") where the word is rare: `planSearch` keeps it only when it finds few more
 * messages than the text (counted). Null: no word long enough.
 */
export function prefixKeyOf(text: string): string | null {
  const longest = text
    .split(/\s+/)
    .map((word) => Array.from(word))
    .reduce<string[]>((best, word) => (word.length > best.length ? word : best), []);
  return longest.length >= PREFIX_KEY_LENGTH + 2 ? longest.slice(0, PREFIX_KEY_LENGTH).join('') : null;
}

/** A prefix key is kept when it finds at most this many times the text's messages (plus a few). */
const PREFIX_KEY_SLACK = { ratio: 1.25, rows: 50 };

/**
 * How many of the company's messages match a pattern, counted for real up to `limit` (the planner's
 * estimate for `ILIKE '%word%'` is often off by several times, and the choice turns on it); `key`, the
 * pattern of `indexKeyOf`, is what the trigram index is asked for.
 */
async function countedMessageMatches(
  knex: Knex,
  companyId: number,
  pattern: string,
  key: string | null,
  limit: number,
): Promise<number> {
  const [row] = await rawRows(knex, COUNT_MATCHES, [companyId, key ?? pattern, pattern, limit]);
  return Number(row?.[0] ?? 0);
}
const COUNT_MATCHES: Statement = {
  name: 'inbox_search_count_matches',
  text: `SELECT count(*) FROM (SELECT 1 FROM messages m
    WHERE m.company_id = $1 AND m.body ILIKE $2 AND lower(m.body) LIKE lower($3) LIMIT $4) s`,
};

/**
 * How many of the company's messages match `key` (read through the trigram index, up to `limit`) and how
 * many of those match `pattern` (a text of which `key` is a part): both exact when fewer than `limit` match
 * the key.
 */
async function countedKeyMatches(
  knex: Knex,
  companyId: number,
  key: string,
  pattern: string,
  limit: number,
): Promise<{ keyed: number; matches: number }> {
  const [row] = await rawRows(knex, COUNT_KEY_MATCHES, [companyId, key, pattern, limit]);
  return { keyed: Number(row?.[0] ?? 0), matches: Number(row?.[1] ?? 0) };
}
const COUNT_KEY_MATCHES: Statement = {
  name: 'inbox_search_count_key_matches',
  text: `SELECT count(*), count(*) FILTER (WHERE lower(s.body) LIKE lower($3)) FROM (SELECT m.body FROM messages m
    WHERE m.company_id = $1 AND m.body ILIKE $2 LIMIT $4) s`,
};

/** The longest text the words answer: a long word is kept as pieces of 100 characters every 50 (migration 0004). */
const SEARCH_WORD_MAX_LENGTH = 51;
/** The shortest: the vocabulary's trigram index needs three characters to narrow anything. */
const SEARCH_WORD_MIN_LENGTH = 3;

/**
 * Whether a text is looked up in the tickets' words (migration 0004): one word — none of the characters
 * the words are split on — of 3 to 51 characters. Such a text is part of a message's lowercased body
 * exactly when it is part of one of its words.
 */
export function searchesWords(text: string): boolean {
  const characters = Array.from(text);
  return (
    characters.length >= SEARCH_WORD_MIN_LENGTH &&
    characters.length <= SEARCH_WORD_MAX_LENGTH &&
    !characters.some((character) => SEARCH_WORD_SEPARATORS.has(character))
  );
}
/** What the words are split on (migration 0004): ASCII whitespace and the search documents' separator. */
export const SEARCH_WORD_SEPARATORS = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\u0001']);

/** How many tickets' words contain a pattern, counted up to a limit (an index-only count). */
async function countedWordMatches(knex: Knex, companyId: number, pattern: string, limit: number): Promise<number> {
  const [row] = await rawRows(knex, COUNT_WORD_MATCHES, [companyId, pattern, limit]);
  return Number(row?.[0] ?? 0);
}
const COUNT_WORD_MATCHES: Statement = {
  name: 'inbox_search_count_word_matches',
  text: (({ cte, hits }) => `WITH ${cte} SELECT count(*) FROM (${hits} LIMIT $3) s`)(wordHitsSql('$1', '$2')),
};

/** Decides how a search text is matched: contact name, number digits, ticket id, message contents. */
export async function planSearch(
  knex: Knex,
  companyId: number,
  text: string,
  onMessages: boolean,
  settings: Record<string, string>,
): Promise<SearchPlan> {
  const pattern = containsPattern(text);
  const digits = text.replace(/\D/g, '');
  const phoneLike = digits.length > 0 && /^[\d\s()+\-./]+$/.test(text);
  let messages: SearchPlan['messages'] = 'none';
  let indexKey: string | null = null;
  const hideDeleted = settings.enableLGPD === 'enabled' && settings.lgpdDeleteMessage === 'enabled';
  // the words can't tell a deleted message's from another's
  let source: SearchPlan['source'] = onMessages && !hideDeleted && searchesWords(text) ? 'words' : 'messages';
  if (onMessages) {
    const { gatherAboveMessages, probeAboveMessages, gatherAboveTickets, probeAboveTickets } = SEARCH_TUNING;
    const [gather, probe] =
      source === 'words' ? [gatherAboveTickets, probeAboveTickets] : [gatherAboveMessages, probeAboveMessages];
    const cacheKey = `${companyId}:${source}:${gather}:${probe}:${pattern}`;
    const known = strategies.get(cacheKey);
    let strategy: 'index' | 'gather' | 'probe';
    if (known && known.until > Date.now()) ({ messages: strategy, indexKey, source } = known);
    else if (source === 'words') {
      // tickets, not messages: gathering costs a key per ticket here
      const matches = await countedWordMatches(knex, companyId, pattern, probe + 1);
      strategy = matches > probe ? 'probe' : matches > gather ? 'gather' : 'index';
    } else {
      const numberKey = indexKeyOf(text);
      indexKey = numberKey === null ? null : containsPattern(numberKey);
      const prefix = numberKey === null ? prefixKeyOf(text) : null;
      let matches: number | null = null;
      if (prefix !== null) {
        const prefixPattern = containsPattern(prefix);
        const counted = await countedKeyMatches(knex, companyId, prefixPattern, pattern, probe + 1);
        // fewer than the limit: both counts are exact; a prefix finding many more messages than the text is
        // dearer than the text's own trigrams (each found message is read to be checked)
        if (counted.keyed <= probe) {
          matches = counted.matches;
          if (counted.keyed <= matches * PREFIX_KEY_SLACK.ratio + PREFIX_KEY_SLACK.rows) indexKey = prefixPattern;
        }
      }
      matches ??= await countedMessageMatches(knex, companyId, pattern, indexKey, probe + 1);
      strategy = matches > probe ? 'probe' : matches > gather ? 'gather' : 'index';
    }
    if (!known || known.until <= Date.now()) {
      if (strategies.size >= STRATEGY_CACHE_SIZE) strategies.clear();
      strategies.set(cacheKey, { messages: strategy, indexKey, source, until: Date.now() + STRATEGY_CACHE_MS });
    }
    messages = strategy !== 'probe' ? strategy : hideDeleted || text.includes(DOC_SEPARATOR) ? 'probe-messages' : 'probe';
  }
  return {
    text,
    pattern,
    numberPattern: phoneLike ? containsPattern(digits) : null,
    ticketId: /^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null,
    indexKey,
    messages,
    source,
  };
}
