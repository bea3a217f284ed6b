/** docs/product/tickets-and-inbox.md#screens-and-routes: the list panel is dragged between 404 and 700 px, 550 by default. */
export const PANEL_MIN_WIDTH = 404;
export const PANEL_MAX_WIDTH = 700;
export const PANEL_DEFAULT_WIDTH = 550;

/** A width inside the allowed range; the default for a missing or unreadable one. */
export function clampPanelWidth(width: number | null | undefined): number {
  if (typeof width !== 'number' || !Number.isFinite(width) || width <= 0) return PANEL_DEFAULT_WIDTH;
  return Math.round(Math.min(PANEL_MAX_WIDTH, Math.max(PANEL_MIN_WIDTH, width)));
}
