import { PLAN_FLAGS, type PlanFlags, type SessionUser } from '@balcao/plugin-sdk/ui';
import { act, fireEvent, screen } from '@testing-library/react';
import { useLayoutEffect, useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderShell, serveApi } from '../../../testing/render-shell';
import { registerShellTranslations } from '../../i18n';
import type { GateableMenuEntry } from './menu-gating';
import { SideMenu } from './SideMenu';

const admin = { id: 1, name: 'Ana', profile: 'admin', super: false } as SessionUser;
const agent = { id: 2, name: 'Leo', profile: 'user', super: false, showDashboard: 'disabled' } as SessionUser;
const allFlags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])) as PlanFlags;
const entries: GateableMenuEntry[] = [
  {
    key: 'hello',
    group: 'main',
    path: '/hello',
    icon: 'SmileOutlined',
    label: { pt: 'Olá', en: 'Hello', es: 'Hola', tr: 'Merhaba' },
  },
  { key: 'users', group: 'admin', path: '/users', label: { pt: 'Usuários', en: 'Users', es: 'Usuarios', tr: 'Kullanıcılar' } },
  {
    key: 'dash',
    group: 'management',
    path: '/',
    permission: 'dashboard:view',
    label: { pt: 'Dashboard', en: 'Dashboard', es: 'Panel', tr: 'Pano' },
  },
];

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderMenu(user: SessionUser, menuEntries: GateableMenuEntry[] | undefined, collapsed = false) {
  return renderShell(
    <>
      <SideMenu user={user} plan={allFlags} entries={menuEntries} collapsed={collapsed} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>,
    { route: '/hello' },
  );
}

describe('the side menu', () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });

  it('shows the groups an admin may see, with titles, and the version at the bottom', async () => {
    serveApi();
    renderMenu(admin, entries);
    expect(screen.getByText('Gerência')).toBeTruthy();
    expect(screen.getByText('Administração')).toBeTruthy();
    expect(screen.getByText('Olá')).toBeTruthy();
    expect(screen.getByText('Usuários')).toBeTruthy();
    expect(await screen.findByText('v4.2.0')).toBeTruthy();
  });

  it('shows a profile user neither Management nor Administration', () => {
    serveApi();
    renderMenu(agent, entries);
    expect(screen.getByText('Olá')).toBeTruthy();
    expect(screen.queryByText('Gerência')).toBeNull();
    expect(screen.queryByText('Usuários')).toBeNull();
    expect(screen.queryByText('Dashboard')).toBeNull();
  });

  it('navigates on click and marks the entry of the current page', () => {
    serveApi();
    renderMenu(admin, entries);
    expect(screen.getByText('Olá').closest('li')?.className).toContain('ant-menu-item-selected');
    fireEvent.click(screen.getByText('Usuários'));
    expect(screen.getByTestId('where').textContent).toBe('/users');
  });

  it('shows skeletons while entries load, and an empty state when nothing is available', () => {
    serveApi();
    const { unmount } = renderMenu(agent, undefined);
    expect(screen.getByTestId('menu-skeleton')).toBeTruthy();
    unmount();
    renderMenu(agent, []);
    expect(screen.getByText('Nenhum recurso disponível')).toBeTruthy();
  });

  it("shows an entry's badge from its useBadge hook: a count or a dot beside the label, on the icon when collapsed", () => {
    serveApi();
    const badged: GateableMenuEntry[] = [
      { ...entries[0], useBadge: () => 3 } as GateableMenuEntry,
      { ...entries[1], useBadge: () => true } as GateableMenuEntry,
      { ...entries[2], useBadge: () => 0 } as GateableMenuEntry,
    ];
    const { unmount } = renderMenu(admin, badged);
    const item = (label: string) => screen.getByText(label).closest('li') as HTMLElement;
    expect(item('Olá').querySelector('.ant-badge-count')?.textContent).toBe('3');
    expect(item('Usuários').querySelector('.ant-badge-dot')).toBeTruthy();
    expect(item('Dashboard').querySelector('.ant-badge')).toBeNull();
    unmount();
    const collapsed = renderMenu(admin, badged, true);
    const icons = collapsed.container.querySelectorAll('.ant-menu-item .ant-badge');
    expect(icons).toHaveLength(2);
  });

  it('hides an entry whose useVisible hook says no', () => {
    serveApi();
    renderMenu(admin, [
      ...entries,
      {
        ...entries[0],
        key: 'helps',
        path: '/helps',
        label: { pt: 'Ajuda', en: 'Help', es: 'Ayuda', tr: 'Yardım' },
        useVisible: () => false,
      } as GateableMenuEntry,
    ]);
    expect(screen.getByText('Olá')).toBeTruthy();
    expect(screen.queryByText('Ajuda')).toBeNull();
  });

  it('never paints an entry whose useVisible hook has not said yes yet (Helps while its list loads)', async () => {
    serveApi();
    let paintedBeforeData = false;
    let answer: (visible: boolean) => void = () => {};
    // a Helps entry: false while the help list loads, then whether it is non-empty
    function useHelpsVisible(): boolean {
      const [visible, setVisible] = useState(false);
      answer = setVisible;
      useLayoutEffect(() => {
        if (!visible && document.body.textContent?.includes('Ajuda')) paintedBeforeData = true;
      });
      return visible;
    }
    const [first] = entries as [GateableMenuEntry];
    renderMenu(admin, [
      first,
      {
        ...first,
        key: 'helps',
        path: '/helps',
        label: { pt: 'Ajuda', en: 'Help', es: 'Ayuda', tr: 'Yardım' },
        useVisible: useHelpsVisible,
      } as GateableMenuEntry,
    ]);
    expect(screen.getByText('Olá')).toBeTruthy();
    expect(screen.queryByText('Ajuda')).toBeNull();
    act(() => answer(true));
    expect(await screen.findByText('Ajuda')).toBeTruthy();
    expect(paintedBeforeData).toBe(false);
  });
});
