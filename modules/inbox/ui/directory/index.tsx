import type { Language, TranslationTree, UiMenuEntry, UiRoute } from '@balcao/plugin-sdk/ui';
import { Skeleton } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/**
 * The inbox's directory pages (docs/product/tickets-and-inbox.md#screens-and-routes): Contacts, Contacts import, Quick messages, Tags. Each page's
 * code loads when its route is first shown.
 */
const ContactsPage = lazy(() => import('./contacts/ContactsPage').then((module) => ({ default: module.ContactsPage })));
const ContactImportPage = lazy(() =>
  import('./import/ContactImportPage').then((module) => ({ default: module.ContactImportPage })),
);
const QuickMessagesPage = lazy(() =>
  import('./quick-messages/QuickMessagesPage').then((module) => ({ default: module.QuickMessagesPage })),
);
const TagsPage = lazy(() => import('./tags/TagsPage').then((module) => ({ default: module.TagsPage })));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} style={{ padding: 8 }} />}>{children}</Suspense>;
}

export const directoryRoutes: UiRoute[] = [
  {
    path: '/contacts',
    element: (
      <Page>
        <ContactsPage />
      </Page>
    ),
  },
  {
    path: '/contacts/import',
    element: (
      <Page>
        <ContactImportPage />
      </Page>
    ),
  },
  {
    path: '/quick-messages',
    element: (
      <Page>
        <QuickMessagesPage />
      </Page>
    ),
  },
  {
    path: '/tags',
    element: (
      <Page>
        <TagsPage />
      </Page>
    ),
  },
];

/** Side-menu entries of the main group (docs/product/tickets-and-inbox.md#screens-and-routes: Tickets, Quick messages, Kanban, Contacts, Schedules, Tags …). */
export const directoryMenu: UiMenuEntry[] = [
  {
    key: 'quick-messages',
    group: 'main',
    path: '/quick-messages',
    icon: 'ThunderboltOutlined',
    order: 2,
    label: { pt: 'Respostas rápidas', en: 'Quick messages', es: 'Respuestas rápidas', tr: 'Hızlı yanıtlar' },
  },
  {
    key: 'contacts',
    group: 'main',
    path: '/contacts',
    icon: 'ContactsOutlined',
    order: 4,
    label: { pt: 'Contatos', en: 'Contacts', es: 'Contactos', tr: 'Kişiler' },
  },
  {
    key: 'tags',
    group: 'main',
    path: '/tags',
    icon: 'TagsOutlined',
    order: 6,
    label: { pt: 'Tags', en: 'Tags', es: 'Etiquetas', tr: 'Etiketler' },
  },
];

/** The directory's texts in the `inbox` namespace: `contacts`, `contactImport`, `quickMessages`, `tags`. */
export const directoryLocales: Record<Language, TranslationTree> = { pt, en, es, tr };
