/**
 * The UI's extension slots by name (docs/plugin-authoring.md "UI slots"). The server needs the names too: a
 * plugin's manifest lists the slots its UI fills (`ui.slots`), so the shell downloads a plugin's remote for
 * a slot only when that plugin declared it.
 */
export const EXTENSION_SLOT_NAMES = [
  'topBar',
  'ticketHeaderActions',
  'contactDrawer',
  'composerToolbar',
  'composerNotice',
  'ticketListItemBadges',
  'messageActions',
  'settingsTabs',
  'dashboardCards',
  'connectionLogin',
] as const;

/** Every slot name a feature may fill besides the frame's `userMenu` (modules only). */
export type ExtensionSlotName = (typeof EXTENSION_SLOT_NAMES)[number];
