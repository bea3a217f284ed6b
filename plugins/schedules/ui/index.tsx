import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

// The page and the ticket view's parts load when first shown: the shell loads this entry as soon as the
// inbox shows a slot, so it stays light.
const SchedulesPage = lazy(() => import('./pages/SchedulesPage').then((m) => ({ default: m.SchedulesPage })));
const ComposerScheduleButton = lazy(() => import('./slots/ComposerScheduleButton'));
const ContactSchedules = lazy(() => import('./slots/ContactSchedules'));

/** The schedules' UI remote (loaded by the shell only for companies whose plan has useSchedules). */
export default definePluginUi({
  id: 'schedules',
  routes: [{ path: '/schedules', element: <SchedulesPage /> }],
  i18n: { pt, en, es, tr },
  slots: {
    composerToolbar: [{ key: 'schedule', Component: ComposerScheduleButton }],
    contactDrawer: [{ key: 'schedules', Component: ContactSchedules }],
  },
});
