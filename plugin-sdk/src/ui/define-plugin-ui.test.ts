import { describe, expect, it } from 'vitest';
import { activatePluginUi, definePluginUi, isPluginUi } from './define-plugin-ui';
import { i18n } from './i18n';
import { permissionTable } from './permissions';

const i18nOf = (text: string) => ({ pt: { title: text }, en: { title: text }, es: { title: text }, tr: { title: text } });

describe('definePluginUi', () => {
  it('marks what it returns, so the host can tell a feature UI from any module', () => {
    const ui = definePluginUi({ id: 'tags', routes: [{ path: '/tags', element: null }], i18n: i18nOf('Tags') });
    expect(isPluginUi(ui)).toBe(true);
    expect(isPluginUi({ id: 'tags' })).toBe(false);
    expect(isPluginUi(null)).toBe(false);
  });

  it('refuses an id that is not a feature id, a relative route, or a missing language', () => {
    expect(() => definePluginUi({ id: 'Tags!', routes: [], i18n: i18nOf('x') })).toThrow(/feature id/);
    expect(() => definePluginUi({ id: 'tags', routes: [{ path: 'tags', element: null }], i18n: i18nOf('x') })).toThrow(
      /start with/,
    );
    const { tr: _missing, ...threeLanguages } = i18nOf('x');
    expect(() =>
      definePluginUi({ id: 'tags', routes: [], i18n: threeLanguages as unknown as ReturnType<typeof i18nOf> }),
    ).toThrow(/'tr'/);
  });

  it('refuses a slot contribution without a key, or with a key the slot already has', () => {
    const Component = () => null;
    expect(() =>
      definePluginUi({
        id: 'notes',
        routes: [],
        i18n: i18nOf('x'),
        slots: {
          ticketHeaderActions: [
            { key: 'a', Component },
            { key: 'a', Component },
          ],
        },
      }),
    ).toThrow(/slot 'ticketHeaderActions' needs a key of its own/);
    expect(() =>
      definePluginUi({
        id: 'notes',
        routes: [],
        i18n: i18nOf('x'),
        slots: { contactDrawer: [{ key: '', Component }] },
      }),
    ).toThrow(/contactDrawer/);
    // one key in two slots is two contributions
    const ui = definePluginUi({
      id: 'notes',
      routes: [],
      i18n: i18nOf('x'),
      slots: { contactDrawer: [{ key: 'a', Component }], ticketListItemBadges: [{ key: 'a', Component }] },
    });
    expect(ui.slots?.contactDrawer?.[0]?.key).toBe('a');
  });

  it('registers translations under the feature id and its permissions on activation', async () => {
    const ui = definePluginUi({
      id: 'notes',
      routes: [],
      i18n: i18nOf('Notas'),
      permissions: { 'notes:delete': ['admin'] },
    });
    await activatePluginUi(ui);
    expect(i18n.t('title', { ns: 'notes' })).toBe('Notas');
    expect(permissionTable()['notes:delete']).toEqual(['admin']);
    expect(permissionTable()['dashboard:view']).toEqual(['admin']);
  });
});
