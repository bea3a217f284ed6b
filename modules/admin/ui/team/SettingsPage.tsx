import { localized, PluginSlotMount, useSession, useSlotEntries, useTranslation } from '@balcao/plugin-sdk/ui';
import { Card, Skeleton, Tabs, Typography } from 'antd';
import { platformSettingsTabs } from '../platform';
import { queuesSettingsTabs } from '../queues';
import { useListCompanySettingsQuery } from './api';
import { OptionsTab } from './OptionsTab';
import type { SettingsTab } from './settings-tab';
import { AccessDenied } from './shared';

/** The tabs after Options: the queues area's (Schedules) and the platform area's (the super user's). */
export function visibleSettingsTabs(
  tabs: readonly SettingsTab[],
  isSuper: boolean,
  settings: Record<string, string> | undefined,
): SettingsTab[] {
  return tabs.filter((tab) => (!tab.superOnly || isSuper) && (!tab.visible || (settings !== undefined && tab.visible(settings))));
}

/**
 * Settings (/settings, docs/product/administration.md#screens-and-routes): Options, then Schedules (when scheduleType is company) and
 * the super user's Companies, Plans, Helps and Whitelabel tabs, then the tabs features add through the
 * `settingsTabs` slot (each in its own error boundary). A profile user sees the access-denied view.
 */
export function SettingsPage() {
  const session = useSession();
  if (!session) return null;
  if (session.profile !== 'admin' && !session.super) return <AccessDenied />;
  return <SettingsTabs isSuper={session.super} />;
}

function SettingsTabs({ isSuper }: { isSuper: boolean }) {
  const { t } = useTranslation('admin');
  const { data: settings } = useListCompanySettingsQuery();
  const featureTabs = useSlotEntries('settingsTabs');
  const extra = visibleSettingsTabs([...queuesSettingsTabs, ...platformSettingsTabs], isSuper, settings);
  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('settings.title')}
      </Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'options', label: t('settings.tabs.options'), children: <OptionsTab /> },
          ...extra.map((tab) => ({ key: tab.key, label: t(tab.labelKey), children: tab.render() })),
          ...featureTabs.map(({ featureId, key, label, Component }) => ({
            key: `${featureId}:${key}`,
            label: localized(label),
            children: (
              <PluginSlotMount slot="settingsTabs" featureId={featureId} contributionKey={key} fallback={<Skeleton active />}>
                <Component />
              </PluginSlotMount>
            ),
          })),
        ]}
      />
    </Card>
  );
}
