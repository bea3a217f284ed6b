/**
 * The embeddable kanban widget (docs/kanban.md "Embedding"). One tag on any page:
 *
 *   <div id="balcao-kanban" style="height: 600px"></div>
 *   <script async src="https://balcao.example/plugins/kanban/widget/kanban-widget.js"
 *     data-key="kbk_…" data-target="#balcao-kanban" data-lang="pt" data-theme="light"></script>
 *
 * or, without data-target, `window.BalcaoKanban.mount({ key, target, … })` from the page's own code.
 */
import { KanbanWidget, type WidgetOptions } from './kanban-widget';

declare global {
  interface Window {
    BalcaoKanban?: { mount(options: Partial<WidgetOptions> & Pick<WidgetOptions, 'key' | 'target'>): KanbanWidget };
  }
}

const script = document.currentScript as HTMLScriptElement | null;
/** The API of the Balcão that served this script, unless the page names another. */
const scriptApi = script?.src ? `${new URL(script.src).origin}/api` : `${location.origin}/api`;

window.BalcaoKanban = {
  mount: (options) => new KanbanWidget({ api: scriptApi, ...options }),
};

const dataset = script?.dataset;
if (dataset?.key && dataset.target) {
  const mount = () => {
    const widget = window.BalcaoKanban?.mount({
      key: dataset.key as string,
      target: dataset.target as string,
      ...(dataset.api ? { api: dataset.api } : {}),
      ...(dataset.lang ? { lang: dataset.lang } : {}),
      ...(dataset.theme === 'dark' ? { theme: 'dark' as const } : {}),
      ...(dataset.userToken ? { userToken: dataset.userToken } : {}),
    });
    // the page can reach the instance it got from a script tag through its target element
    const target = document.querySelector(dataset.target as string) as (HTMLElement & { balcaoKanban?: KanbanWidget }) | null;
    if (target && widget) target.balcaoKanban = widget;
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount, { once: true });
  else mount();
}
