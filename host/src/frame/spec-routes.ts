/**
 * The private routes of 1-core §2 that features serve (/financeiro-aberto is the shell's own). The
 * campaign routes that exist only with the local `cshow` flag are left to the campaigns feature.
 */
export const SPEC_PRIVATE_ROUTES: readonly string[] = [
  '/',
  '/tickets/:ticketId?',
  '/connections',
  '/quick-messages',
  '/todolist',
  '/schedules',
  '/tags',
  '/contacts',
  '/contacts/import',
  '/helps',
  '/users',
  '/messages-api',
  '/settings',
  '/queues',
  '/reports',
  '/queue-integration',
  '/announcements',
  '/phrase-lists',
  '/flowbuilders',
  '/flowbuilder/:id?',
  '/chats/:id?',
  '/files',
  '/moments',
  '/Kanban',
  '/TagsKanban',
  '/prompts',
  '/allConnections',
  '/subscription',
  '/financeiro',
  '/companies',
];

/**
 * The spec's routes that no installed (or, for plugins, allowed) feature declares: the frame shows a
 * "feature unavailable" page there instead of "page not found". Paths compare case-insensitively, as the
 * router matches them. A feature declaring a route of its own still wins: its routes come first.
 */
export function unservedSpecRoutes(servedPaths: readonly string[]): string[] {
  const served = new Set(servedPaths.map((path) => path.toLowerCase()));
  return SPEC_PRIVATE_ROUTES.filter((path) => !served.has(path.toLowerCase()));
}
