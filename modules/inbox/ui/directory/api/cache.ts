import type { SessionState } from '@balcao/plugin-sdk/ui';

/** Tag types of the directory's cache entries. */
export const DIRECTORY_TAG_TYPES = ['Contact', 'Tag', 'QuickMessage'] as const;

/** The arguments of a paged list: the search and the page (from 1). */
export interface PageArgs {
  searchParam: string;
  pageNumber: number;
}

/** The session's company id, read from the store handed to `onCacheEntryAdded`. */
export function companyIdOf(state: unknown): number | undefined {
  return (state as { session?: SessionState }).session?.user?.companyId;
}

/** The session's user id, read from the store. */
export function userIdOf(state: unknown): number | undefined {
  return (state as { session?: SessionState }).session?.user?.id;
}

/** The session's profile (admin or user), read from the store. */
export function profileOf(state: unknown): 'admin' | 'user' | undefined {
  return (state as { session?: SessionState }).session?.user?.profile;
}

/** The cache key of a paged list: everything but the page, so the pages of one search share one entry. */
export function withoutPage<A extends { pageNumber?: number }>(args: A): Omit<A, 'pageNumber'> {
  const { pageNumber: _page, ...rest } = args;
  return rest;
}

/**
 * Puts a page into a merged list: page 1 replaces it (a new search, a refetch), any other page is
 * appended, rows already there (moved by realtime updates between two pages) replaced in place.
 */
export function mergePage<T extends { id: number }>(current: T[], incoming: T[], pageNumber: number): T[] {
  if (pageNumber <= 1) return [...incoming];
  const byId = new Map(incoming.map((row) => [row.id, row]));
  const merged = current.map((row) => byId.get(row.id) ?? row);
  const known = new Set(current.map((row) => row.id));
  for (const row of incoming) if (!known.has(row.id)) merged.push(row);
  return merged;
}

/** Replaces a row by id, or inserts it at the start (when `insert` allows); returns whether it was added. */
export function upsertRow<T extends { id: number }>(rows: T[], row: T, insert: boolean): 'replaced' | 'added' | 'none' {
  const index = rows.findIndex((item) => item.id === row.id);
  if (index >= 0) {
    rows[index] = row;
    return 'replaced';
  }
  if (!insert) return 'none';
  rows.unshift(row);
  return 'added';
}

/** Removes a row by id; returns whether it was there. */
export function removeRow<T extends { id: number }>(rows: T[], id: number): boolean {
  const index = rows.findIndex((item) => item.id === id);
  if (index < 0) return false;
  rows.splice(index, 1);
  return true;
}

/** Whether any of the texts contains the search (case-insensitive); an empty search matches everything. */
export function matchesSearch(search: string, ...texts: Array<string | null | undefined>): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return texts.some((text) => text?.toLowerCase().includes(needle));
}
