import { definePluginUi, type PluginUi, type SessionUser } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderShell, serveApi } from '../../testing/render-shell';
import { registerShellTranslations } from '../i18n';
import { Frame } from './Frame';
import { NARROW_SCREEN_QUERY } from './useNarrowScreen';

const user = (defaultMenu: 'open' | 'closed') =>
  ({
    id: 4,
    name: 'Ana Admin',
    companyId: 2,
    profile: 'admin',
    super: false,
    defaultMenu,
    company: { id: 2, name: 'Acme', dueDate: '2999-01-01' },
  }) as SessionUser;

const hello: PluginUi = definePluginUi({
  id: 'hello',
  routes: [{ path: '/hello', element: <h2>Hello page</h2> }],
  menu: [{ key: 'hello', group: 'main', path: '/hello', label: { pt: 'Olá', en: 'Hello', es: 'Hola', tr: 'Merhaba' } }],
  i18n: { pt: {}, en: {}, es: {}, tr: {} },
});

function renderFrame(route: string, options: { defaultMenu?: 'open' | 'closed'; modules?: PluginUi[] } = {}) {
  serveApi();
  return renderShell(<Frame user={user(options.defaultMenu ?? 'open')} modules={options.modules ?? [hello]} plugins={[]} />, {
    route,
  });
}

const originalMatchMedia = globalThis.matchMedia;

describe('the app frame', () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });
  afterEach(() => {
    globalThis.matchMedia = originalMatchMedia;
  });

  it("opens or closes the side menu by the user's defaultMenu, and the top bar toggles it", async () => {
    const { unmount } = renderFrame('/hello', { defaultMenu: 'closed' });
    const toggle = screen.getByRole('button', { name: 'Abrir menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('v4.2.0')).toBeNull();
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Fechar menu' }).getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByText('v4.2.0')).toBeTruthy();
    unmount();
    renderFrame('/hello', { defaultMenu: 'open' });
    expect(screen.getByRole('button', { name: 'Fechar menu' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Hello page' })).toBeTruthy();
  });

  it('turns the menu into a temporary drawer under 600 px, whatever defaultMenu says', () => {
    globalThis.matchMedia = ((query: string) => ({
      ...originalMatchMedia(query),
      matches: query === NARROW_SCREEN_QUERY,
    })) as typeof globalThis.matchMedia;
    renderFrame('/hello', { defaultMenu: 'open' });
    expect(screen.queryByRole('menuitem', { name: 'Olá' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Abrir menu' }));
    const drawer = screen.getByRole('dialog', { name: 'Menu principal' });
    fireEvent.click(within(drawer).getByText('Olá'));
    expect(screen.getByRole('heading', { name: 'Hello page' })).toBeTruthy();
  });

  it('says a documented route whose feature is not installed is unavailable, and offers the first page of the menu', () => {
    renderFrame('/tickets');
    expect(screen.getByText('Recurso indisponível')).toBeTruthy();
    expect(screen.queryByText('Página não encontrada')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Ir para o início' }));
    expect(screen.getByRole('heading', { name: 'Hello page' })).toBeTruthy();
  });

  it('keeps "page not found" for undocumented addresses, and no home button when nothing is installed', () => {
    const { unmount } = renderFrame('/tickets/0b8f/whatever/else');
    expect(screen.getByText('Página não encontrada')).toBeTruthy();
    unmount();
    renderFrame('/files', { modules: [] });
    expect(screen.getByText('Recurso indisponível')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ir para o início' })).toBeNull();
  });

  it("lets a feature's own route win over the unavailable page", () => {
    const tickets = definePluginUi({
      id: 'tickets',
      routes: [{ path: '/tickets/:ticketId?', element: <h2>Tickets page</h2> }],
      i18n: { pt: {}, en: {}, es: {}, tr: {} },
    });
    renderFrame('/tickets/0b8f', { modules: [tickets] });
    expect(screen.getByRole('heading', { name: 'Tickets page' })).toBeTruthy();
  });
});
