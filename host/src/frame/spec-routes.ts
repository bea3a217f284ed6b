import type { PlanFlag } from '@balcao/plugin-sdk/ui';

/**
 * The private routes of docs/product/tickets-and-inbox.md#screens-and-routes and docs/product/automation.md#screens-and-routes that features serve (/financeiro-aberto is the
 * shell's own). The campaign routes are listed whatever the documented local `cshow` flag says (the campaigns
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
 * The plan flag each documented plan-gated route needs (docs/product/tickets-and-inbox.md#screens-and-routes menu, docs/product/administration.md#tags-and-kanban,
 * docs/product/automation.md#screens-and-routes and #errors). A company whose plan lacks it is refused the page with the
 * documented toast and sent home after 1 second, whether or not the feature is installed.
 */
export const SPEC_ROUTE_PLAN_FLAGS: Readonly<Record<string, PlanFlag>> = {
  '/kanban': 'useKanban',
  '/tagskanban': 'useKanban',
  '/schedules': 'useSchedules',
  '/chats/:id?': 'useInternalChat',
  '/messages-api': 'useExternalApi',
  '/campaigns': 'useCampaigns',
  '/campaign/:campaignId/report': 'useCampaigns',
  '/campaigns-config': 'useCampaigns',
  '/contact-lists': 'useCampaigns',
  '/contact-lists/:contactListId/contacts': 'useCampaigns',
  '/prompts': 'useOpenAi',
  '/queue-integration': 'useIntegrations',
  '/flowbuilders': 'useIntegrations',
  '/flowbuilder/:id?': 'useIntegrations',
};

/** The plan flag a documented route needs, or null (paths compare case-insensitively). */
export function planFlagOf(path: string): PlanFlag | null {
  return SPEC_ROUTE_PLAN_FLAGS[path.toLowerCase()] ?? null;
}

/**
 * The documented routes that no installed (or, for plugins, allowed) feature declares: the frame shows a
 * "feature unavailable" page there instead of "page not found". Paths compare case-insensitively, as the
 * router matches them. A feature declaring a route of its own still wins: its routes come first.
 */
export function unservedSpecRoutes(servedPaths: readonly string[]): string[] {
  const served = new Set(servedPaths.map((path) => path.toLowerCase()));
  return SPEC_PRIVATE_ROUTES.filter((path) => !served.has(path.toLowerCase()));
}
