import type { QuickMessage } from '../../../shared/types';

/** Who is asking: the session user's id and profile. */
export interface QuickMessageViewer {
  id: number;
  profile: 'admin' | 'user';
}

/**
 * docs/product/automation.md#quick-message-visibility: a message with visibility on and not general can be edited
 * only by its owner; anything else the user sees may be edited.
 */
export function canEditQuickMessage(
  record: Pick<QuickMessage, 'visao' | 'geral' | 'userId'>,
  viewer: QuickMessageViewer,
): boolean {
  if (record.visao && !record.geral) return record.userId === viewer.id;
  return true;
}

/** `DELETE /quick-messages/:id` and its media calls are for the owner or an admin (the inbox API contract). */
export function canDeleteQuickMessage(record: Pick<QuickMessage, 'userId'>, viewer: QuickMessageViewer): boolean {
  return viewer.profile === 'admin' || record.userId === viewer.id;
}

/** The general flag needs visibility: turning visibility off clears it (docs/product/automation.md#quick-message-visibility). */
export function normalizeVisibility(values: { visao: boolean; geral: boolean }): { visao: boolean; geral: boolean } {
  return { visao: values.visao, geral: values.visao && values.geral };
}
