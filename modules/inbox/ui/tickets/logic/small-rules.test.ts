import type { SessionUser } from '@balcao/plugin-sdk/ui';
import { describe, expect, it } from 'vitest';
import { isNewTagNameValid, tagsToSync } from './contact-tags';
import { clampPanelWidth } from './panel-width';
import { companySetting, isSettingEnabled, listViewerOf } from './session';

describe('the list panel width (docs/product/tickets-and-inbox.md#screens-and-routes)', () => {
  it('stays between 404 and 700 px, 550 by default', () => {
    expect(clampPanelWidth(undefined)).toBe(550);
    expect(clampPanelWidth(0)).toBe(550);
    expect(clampPanelWidth(300)).toBe(404);
    expect(clampPanelWidth(900)).toBe(700);
    expect(clampPanelWidth(512.4)).toBe(512);
  });
});

describe('free tag creation (docs/product/tickets-and-inbox.md#validation)', () => {
  const known = [{ id: 1, name: 'VIP' }];

  it("needs 3 characters for a new tag ('Tag muito curta!'), any length for an existing one", () => {
    expect(isNewTagNameValid('ab', known)).toBe(false);
    expect(isNewTagNameValid(' abc ', known)).toBe(true);
    expect(isNewTagNameValid('vip', known)).toBe(true);
  });

  it('syncs existing tags by id and new names without one, each once', () => {
    expect(tagsToSync(['vip', 'Novo', 'novo ', ''], known)).toEqual([{ id: 1, name: 'VIP' }, { name: 'Novo' }]);
  });
});

describe('the session as the screen reads it', () => {
  const user = {
    id: 7,
    profile: 'user',
    super: false,
    allTicket: 'enable',
    allowGroup: true,
    queues: [{ id: 1, name: 'Vendas', color: '#000' }],
    company: {
      id: 1,
      name: 'Acme',
      dueDate: '2999-12-31',
      companieSettings: [
        { key: 'sendSignMessage', value: 'enabled' },
        { key: 'requiredTag', value: 'disabled' },
      ],
    },
  } as unknown as SessionUser;

  it('reads company settings', () => {
    expect(companySetting(user, 'requiredTag')).toBe('disabled');
    expect(isSettingEnabled(user, 'sendSignMessage')).toBe(true);
    expect(isSettingEnabled(user, 'requiredTag')).toBe(false);
    expect(isSettingEnabled(user, 'missing')).toBe(false);
  });

  it('makes the list viewer of the session user', () => {
    expect(listViewerOf(user)).toEqual({ id: 7, isAdmin: false, queueIds: [1], allTicket: true, allowGroup: true });
  });
});
