/**
 * The private routes of 1-core §2 and 3-automation §2 that features serve (/financeiro-aberto is the
 * shell's own). The campaign routes are listed whatever the spec's local `cshow` flag says (the campaigns
 * plugin shows them to every plan with useCampaigns: docs/campaigns.md).
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
  '/campaigns',
  '/campaign/:campaignId/report',
  '/campaigns-config',
  '/contact-lists',
  '/contact-lists/:contactListId/contacts',
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
