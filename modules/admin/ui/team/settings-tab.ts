import type { ReactNode } from 'react';

/**
 * A tab of the Settings page (docs/product/administration.md#settings). The team area owns the page and its Options
 * tab; the queues area adds Schedules and the platform area the super user's tabs, so each tab's code
 * stays in its own area.
 */
export interface SettingsTab {
  key: string;
  /** i18n key (namespace `admin`) of the tab's title. */
  labelKey: string;
  /** Only the super user sees it. */
  superOnly?: boolean;
  /** Shown only when this holds for the company's settings (Schedules: scheduleType is company). */
  visible?: (settings: Record<string, string>) => boolean;
  render: () => ReactNode;
}
