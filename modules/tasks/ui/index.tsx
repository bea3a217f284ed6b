import { definePluginUi, type UiRoute } from '@balcao/plugin-sdk/ui';
import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const TodoListPage = lazy(() => import('./TodoListPage').then((module) => ({ default: module.TodoListPage })));

/**
 * `/todolist`, the task list (docs/product/automation.md "The task list"). No side-menu entry: the documented
 * menu (docs/product/tickets-and-inbox.md "Side menu") lists none, so the page is reached by its address
 * (docs/decisions.md "The task list").
 */
export const tasksRoutes: UiRoute[] = [
  {
    path: '/todolist',
    element: (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} style={{ padding: 8 }} />}>
        <TodoListPage />
      </Suspense>
    ),
  },
];

export const tasksLocales = { pt, en, es, tr };

/** The task list: a page of the shell, no server part (its data never leaves the device). */
export default definePluginUi({ id: 'tasks', routes: tasksRoutes, i18n: tasksLocales });
