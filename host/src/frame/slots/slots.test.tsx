import { TEST_SESSION_USER } from '@balcao/plugin-sdk/testing/ui';
import {
  type ComponentSlotProps,
  definePluginUi,
  PLAN_FLAGS,
  type PlanFlags,
  PluginSlot,
  PluginSlotMount,
  type PluginSlotProps,
  type PluginUiSlots,
  permissionTable,
  type SessionUser,
  type SlotTicket,
} from '@balcao/plugin-sdk/ui';
import { screen } from '@testing-library/react';
import { lazy, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderShell, serveApi } from '../../../testing/render-shell';
import { registerShellTranslations } from '../../i18n';
import { SlotHostProvider } from './SlotHostProvider';
import { collectSlotEntries } from './slot-entries';

const i18nOf = (text: string) => ({ pt: { title: text }, en: { title: text }, es: { title: text }, tr: { title: text } });
const featureUi = (id: string, slots: PluginUiSlots) => definePluginUi({ id, routes: [], i18n: i18nOf(id), slots });

const admin = TEST_SESSION_USER;
const agent = {
  ...TEST_SESSION_USER,
  id: 2,
  profile: 'user',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
} as SessionUser;
const plan = (flags: Partial<PlanFlags> = {}): PlanFlags =>
  ({ ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, false])), ...flags }) as PlanFlags;
const audience = (user: SessionUser, flags?: PlanFlags) => ({ user, plan: flags, table: permissionTable() });

const ticket = { id: 42, uuid: 'uuid-42', tags: [] } as unknown as SlotTicket;

/** A ticket-header button that names itself. */
const button =
  (label: string) =>
  ({ ticket: shown }: ComponentSlotProps['ticketHeaderActions']) => (
    <button type="button">
      {label} #{shown.id}
    </button>
  );

function Broken(): ReactNode {
  throw new Error('the plugin broke');
}

/** A page with a slot, inside the frame's slot host. */
function renderSlot(
  modules: ReturnType<typeof featureUi>[],
  slot: ReactNode = <PluginSlot name="ticketHeaderActions" props={{ ticket }} />,
  user: SessionUser = admin,
) {
  serveApi();
  return renderShell(
    <SlotHostProvider user={user} plan={plan()} modules={modules} plugins={[]}>
      <p>the inbox</p>
      {slot}
    </SlotHostProvider>,
  );
}

const buttonTexts = () => screen.queryAllByRole('button').map((element) => element.textContent);

describe('slot contributions', () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });
  afterEach(() => vi.restoreAllMocks());

  it('come by order, then modules before plugins in the order given, then in their array order', () => {
    const inbox = featureUi('inbox', {
      ticketHeaderActions: [
        { key: 'a', Component: button('A') },
        { key: 'b', Component: button('B'), order: 2 },
      ],
    });
    const admin1 = featureUi('admin', { ticketHeaderActions: [{ key: 'c', Component: button('C') }] });
    const kanban = featureUi('kanban', {
      ticketHeaderActions: [
        { key: 'd', Component: button('D'), order: 1 },
        { key: 'e', Component: button('E') },
      ],
    });
    const entries = collectSlotEntries(
      [{ ui: inbox }, { ui: admin1 }, { ui: kanban, planFlag: 'useKanban' }],
      audience(admin, plan({ useKanban: true })),
    );
    expect(entries.ticketHeaderActions.map((entry) => `${entry.featureId}:${entry.key}`)).toEqual([
      'kanban:d',
      'inbox:b',
      'inbox:a',
      'admin:c',
      'kanban:e',
    ]);
    expect(entries.contactDrawer).toEqual([]);

    renderSlot([inbox, admin1]);
    expect(buttonTexts()).toEqual(['B #42', 'A #42', 'C #42']);
  });

  it("are nothing from a plugin whose plan flag the company's plan lacks (or while the plan loads)", () => {
    const kanban = featureUi('kanban', { contactDrawer: [{ key: 'lane', Component: () => <p>lane</p> }] });
    const sources = [{ ui: kanban, planFlag: 'useKanban' as const }];
    expect(collectSlotEntries(sources, audience(admin, plan())).contactDrawer).toEqual([]);
    expect(collectSlotEntries(sources, audience(admin, undefined)).contactDrawer).toEqual([]);
    expect(
      collectSlotEntries(sources, audience(admin, plan({ useKanban: true }))).contactDrawer.map((entry) => entry.key),
    ).toEqual(['lane']);
  });

  it('from a plugin are only those of the slots its manifest declares (the ones it is loaded for)', () => {
    const kanban = featureUi('kanban', {
      contactDrawer: [{ key: 'lane', Component: () => <p>lane</p> }],
      ticketHeaderActions: [{ key: 'board', Component: button('board') }],
    });
    const entries = collectSlotEntries(
      [{ ui: kanban, planFlag: 'useKanban' as const, declared: ['contactDrawer'] as const }],
      audience(admin, plan({ useKanban: true })),
    );
    expect(entries.contactDrawer.map((entry) => entry.key)).toEqual(['lane']);
    expect(entries.ticketHeaderActions).toEqual([]);
  });

  it('of the top bar come from modules and from plugins that declare it, by order (the bell, announcements, chat)', () => {
    const inbox = featureUi('inbox', { topBar: [{ key: 'notifications', Component: () => null, order: 10 }] });
    const admin1 = featureUi('admin', { topBar: [{ key: 'announcements', Component: () => null, order: 20 }] });
    const chat = featureUi('internal-chat', { topBar: [{ key: 'chats', Component: () => null, order: 30 }] });
    const audienceWithChat = audience(admin, plan({ useInternalChat: true }));
    const declared = collectSlotEntries(
      [{ ui: chat, planFlag: 'useInternalChat' as const, declared: ['topBar'] as const }, { ui: admin1 }, { ui: inbox }],
      audienceWithChat,
    );
    expect(declared.topBar.map((entry) => `${entry.featureId}:${entry.key}`)).toEqual([
      'inbox:notifications',
      'admin:announcements',
      'internal-chat:chats',
    ]);
    const undeclared = collectSlotEntries(
      [{ ui: chat, planFlag: 'useInternalChat' as const, declared: [] as const }],
      audienceWithChat,
    );
    expect(undeclared.topBar).toEqual([]);
  });

  it('are gated one by one by plan flag, permission and super-only, as the menu is', () => {
    const ui = featureUi('reports-plus', {
      dashboardCards: [
        { key: 'open', Component: () => null },
        { key: 'flagged', Component: () => null, planFlag: 'useCampaigns' },
        { key: 'admins', Component: () => null, permission: 'drawer-admin-items:view' },
        { key: 'super', Component: () => null, superOnly: true },
      ],
    });
    const keys = (user: SessionUser, flags: PlanFlags) =>
      collectSlotEntries([{ ui }], audience(user, flags)).dashboardCards.map((entry) => entry.key);
    expect(keys(agent, plan())).toEqual(['open']);
    expect(keys(admin, plan())).toEqual(['open', 'admins']);
    expect(keys(admin, plan({ useCampaigns: true }))).toEqual(['open', 'flagged', 'admins']);
    expect(keys({ ...admin, super: true }, plan({ useCampaigns: true }))).toEqual(['open', 'flagged', 'admins', 'super']);

    renderSlot(
      [
        featureUi('admins-only', {
          ticketHeaderActions: [{ key: 'x', Component: button('X'), permission: 'drawer-admin-items:view' }],
        }),
      ],
      undefined,
      agent,
    );
    expect(buttonTexts()).toEqual([]);
  });

  it('that throw render nothing and are logged, while the page and the other contributions go on', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSlot([
      featureUi('good', { ticketHeaderActions: [{ key: 'first', Component: button('First') }] }),
      featureUi('bad', { ticketHeaderActions: [{ key: 'boom', Component: Broken }] }),
      featureUi('also-good', { ticketHeaderActions: [{ key: 'last', Component: button('Last') }] }),
    ]);
    expect(screen.getByText('the inbox')).toBeTruthy();
    expect(buttonTexts()).toEqual(['First #42', 'Last #42']);
    expect(logged.mock.calls.some((call) => String(call[0]).includes("'bad:boom' of slot 'ticketHeaderActions'"))).toBe(true);
  });

  it('may be lazy: the fallback shows in its place until its code arrives', async () => {
    let arrive: (module: { default: (props: ComponentSlotProps['ticketHeaderActions']) => ReactNode }) => void = () => {};
    const Late = lazy(
      () =>
        new Promise<{ default: (props: ComponentSlotProps['ticketHeaderActions']) => ReactNode }>(
          (resolve) => (arrive = resolve),
        ),
    );
    const slot = <PluginSlot name="ticketHeaderActions" props={{ ticket }} fallback={<span>loading…</span>} />;
    renderSlot([featureUi('late', { ticketHeaderActions: [{ key: 'late', Component: Late }] })], slot);
    expect(await screen.findByText('loading…')).toBeTruthy();
    arrive({ default: button('Late') });
    expect(await screen.findByRole('button', { name: 'Late #42' })).toBeTruthy();
    expect(screen.queryByText('loading…')).toBeNull();
  });

  it('of a page laid out by its owner (a Settings tab) get the error panel when they throw', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSlot(
      [],
      <PluginSlotMount slot="settingsTabs" featureId="kanban" contributionKey="lanes">
        <Broken />
      </PluginSlotMount>,
    );
    expect(screen.getByText('O módulo “kanban” encontrou um erro.')).toBeTruthy();
    expect(screen.getByText('the inbox')).toBeTruthy();
  });

  it('render nothing outside the frame (no slot host)', () => {
    serveApi();
    const props: PluginSlotProps<'ticketHeaderActions'> = { name: 'ticketHeaderActions', props: { ticket } };
    const { container } = renderShell(
      <>
        <PluginSlot {...props} />
        <PluginSlotMount slot="settingsTabs" featureId="kanban" contributionKey="lanes">
          <p>plain</p>
        </PluginSlotMount>
      </>,
    );
    expect(container.textContent).toBe('plain');
  });
});
