import { api, store } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AnnouncementsPage } from './announcements/AnnouncementsPage';
import { AnnouncementsPopover } from './announcements/AnnouncementsPopover';
import { type Announcement, applyAnnouncement, type Help } from './api';
import { HelpsPage } from './helps/HelpsPage';
import { platformMenu, platformSettingsTabs } from './index';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';
import { renderPage, serveApi, signIn } from './testing/render';
import { WhitelabelTab } from './whitelabel/WhitelabelTab';

const announcement = (id: number, priority: number, fields: Partial<Announcement> = {}): Announcement => ({
  id,
  title: `Aviso ${id}`,
  text: `Texto ${id}`,
  priority,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  createdAt: `2026-05-0${id}T10:00:00.000Z`,
  updatedAt: `2026-05-0${id}T10:00:00.000Z`,
  ...fields,
});

const help = (id: number, video: string): Help => ({
  id,
  title: `Vídeo ${id}`,
  description: `Descrição ${id}`,
  video,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('announcements popover', () => {
  beforeEach(() => signIn({ super: false, companyId: 2 }));

  it('lists the active announcements with their priority colours', async () => {
    serveApi(({ path }) =>
      path === '/announcements/list'
        ? { status: 200, body: [announcement(1, 1), announcement(2, 2), announcement(3, 3)] }
        : undefined,
    );
    renderPage(<AnnouncementsPopover />);
    fireEvent.click(await screen.findByRole('button', { name: 'Informativos' }));
    const items = await waitFor(() => {
      const found = document.querySelectorAll('[data-priority]');
      expect(found.length).toBe(3);
      return [...found] as HTMLElement[];
    });
    // 1 red, 2 orange, 3 grey (docs/product/tickets-and-inbox.md#entities)
    expect(items.map((item) => item.style.borderInlineStart.toLowerCase())).toEqual([
      '4px solid #f5222d',
      '4px solid #fa8c16',
      '4px solid #8c8c8c',
    ]);
    expect(within(items[0] as HTMLElement).getByText('Texto 1')).toBeTruthy();
  });

  it('keeps the list right as announcements are created, changed and deleted', () => {
    const list = [announcement(1, 2), announcement(2, 3)];
    applyAnnouncement(list, { action: 'create', record: announcement(3, 1) });
    expect(list.map((item) => item.id)).toEqual([3, 1, 2]);
    applyAnnouncement(list, { action: 'update', record: announcement(1, 2, { status: false }) });
    expect(list.map((item) => item.id)).toEqual([3, 2]);
    applyAnnouncement(list, { action: 'delete', id: 3 });
    expect(list.map((item) => item.id)).toEqual([2]);
  });
});

describe('help videos', () => {
  beforeEach(() => signIn({ super: false, companyId: 2 }));

  it('shows the gallery and plays a video in a dialog', async () => {
    serveApi(({ path }) =>
      path === '/helps/list' ? { status: 200, body: [help(1, 'dQw4w9WgXcQ'), help(2, 'aqz-KE-bpKQ')] } : undefined,
    );
    renderPage(<HelpsPage />);
    const card = await screen.findByRole('button', { name: 'Assistir Vídeo 1' });
    expect((within(card).getByRole('img') as HTMLImageElement).src).toContain('img.youtube.com/vi/dQw4w9WgXcQ');
    fireEvent.click(card);
    const dialog = await screen.findByRole('dialog');
    expect((dialog.querySelector('iframe') as HTMLIFrameElement).src).toContain('youtube.com/embed/dQw4w9WgXcQ');
  });

  it('says so when there are none, and the menu entry hides', async () => {
    serveApi(({ path }) => (path === '/helps/list' ? { status: 200, body: [] } : undefined));
    renderPage(<HelpsPage />);
    expect(await screen.findByText('Nenhum vídeo de ajuda disponível.')).toBeTruthy();
    const helps = platformMenu.find((entry) => entry.path === '/helps');
    expect(helps?.useVisible).toBeTypeOf('function');
  });
});

describe('whitelabel tab', () => {
  beforeEach(() => signIn());

  it('saves the app name at once and applies it to the shell without a reload', async () => {
    const values = {
      primaryColorLight: '#0000FF',
      primaryColorDark: '#39ACE7',
      appName: '',
      appLogoLight: '',
      appLogoDark: '',
      appLogoFavicon: '',
    };
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/settings-whitelabel') return { status: 200, body: values };
      if (method === 'PUT' && path === '/settings-whitelabel/appName') {
        values.appName = (body as { value: string }).value;
        return { status: 200, body: values };
      }
      return undefined;
    });
    // the shell's cached public setting, as the title and the login page read it
    const shell = api.injectEndpoints({
      endpoints: (build) => ({ getPublicSetting: build.query<string, string>({ query: (key) => `/public-settings/${key}` }) }),
      overrideExisting: false,
    });
    renderPage(<WhitelabelTab />);
    const input = await screen.findByLabelText('Nome do sistema');
    fireEvent.change(input, { target: { value: 'Atende Já' } });
    fireEvent.blur(input);
    expect(await screen.findByText('Operação atualizada com sucesso', {}, { timeout: 3000 })).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ value: 'Atende Já' });
    const cached = shell.endpoints.getPublicSetting.select('appName')(store.getState() as never);
    expect(cached.data).toBe('Atende Já');
  });
});

describe('platform texts', () => {
  const leaves = (tree: object, prefix = ''): string[] =>
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [`${prefix}${key}`] : leaves(value as object, `${prefix}${key}.`),
    );

  it('have the same keys in pt, en, es and tr, with the documented words in pt', () => {
    const reference = leaves(pt).sort();
    for (const tree of [en, es, tr]) expect(leaves(tree).sort()).toEqual(reference);
    expect(pt.platform.common.loadError).toBe('Não foi possível carregar a lista de registros');
    expect(pt.platform.common.deleteError).toBe('Não foi possível realizar a operação');
    expect(pt.platform.common.success).toBe('Operação realizada com sucesso!');
    expect(pt.platform.companies.validation.nameRequired).toBe('Nome é obrigatório');
    expect(pt.platform.companies.validation.emailRequired).toBe('E-mail é obrigatório');
    expect(pt.platform.companies.validation.emailInvalid).toBe('Email é inválido');
    expect(pt.platform.announcements.priorities).toEqual({ 1: 'Alta', 2: 'Média', 3: 'Baixa' });
    expect(platformSettingsTabs.map((tab) => [tab.key, tab.superOnly])).toEqual([
      ['companies', true],
      ['plans', true],
      ['helps', true],
      ['whitelabel', true],
    ]);
  });
});

describe('announcements page', () => {
  beforeEach(() => signIn());

  it('creates an announcement with priority 3 and active by default, then sends its image', async () => {
    const rows: Announcement[] = [];
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/announcements')
        return { status: 200, body: { records: rows, count: rows.length, hasMore: false } };
      if (method === 'POST' && path === '/announcements') {
        const created = announcement(7, 3, { ...(body as object) });
        rows.push(created);
        return { status: 201, body: created };
      }
      if (method === 'POST' && path === '/announcements/7/media-upload') {
        return { status: 200, body: announcement(7, 3, { mediaName: 'aviso.png', mediaPath: 'announcements/x.png' }) };
      }
      return undefined;
    });
    renderPage(<AnnouncementsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Novo informativo/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect((await within(dialog).findAllByText('Obrigatório')).length).toBe(2);
    fireEvent.change(within(dialog).getByLabelText('Título'), { target: { value: 'Manutenção' } });
    fireEvent.change(within(dialog).getByLabelText('Texto'), { target: { value: 'Domingo às 23h' } });
    const picker = within(dialog).getByTestId('announcement-image') as HTMLInputElement;
    fireEvent.change(picker, { target: { files: [new File(['x'], 'aviso.gif', { type: 'image/gif' })] } });
    expect(
      await screen.findByText(
        'Somente imagens png, jpg ou jpeg.',
        { selector: '.ant-message *, .ant-notification *' },
        { timeout: 3000 },
      ),
    ).toBeTruthy();
    fireEvent.change(picker, { target: { files: [new File(['x'], 'aviso.png', { type: 'image/png' })] } });
    expect(await within(dialog).findByText('aviso.png')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/announcements/7/media-upload')).toBe(true));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/announcements')?.body).toEqual({
      title: 'Manutenção',
      text: 'Domingo às 23h',
      priority: 3,
      status: true,
    });
    const form = calls.find((call) => call.path === '/announcements/7/media-upload')?.body as FormData;
    expect(form.get('typeArch')).toBe('announcements');
    expect((form.get('file') as File).name).toBe('aviso.png');
  });
});

describe('whitelabel logos', () => {
  beforeEach(() => signIn());

  it('uploads a logo as multipart with typeArch logo and its mode, and shows it', async () => {
    const values = {
      primaryColorLight: '#0000FF',
      primaryColorDark: '#39ACE7',
      appName: '',
      appLogoLight: '',
      appLogoDark: '',
      appLogoFavicon: '',
    };
    const calls = serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/settings-whitelabel') return { status: 200, body: values };
      if (method === 'POST' && path === '/settings-whitelabel/logo') return { status: 200, body: 'abcdefabcdefabcdefabcdef.png' };
      return undefined;
    });
    renderPage(<WhitelabelTab />);
    const picker = (await screen.findByTestId('logo-Favicon')) as HTMLInputElement;
    fireEvent.change(picker, { target: { files: [new File(['x'], 'fav.png', { type: 'image/png' })] } });
    await waitFor(() => expect(calls.some((call) => call.path === '/settings-whitelabel/logo')).toBe(true));
    const form = calls.find((call) => call.path === '/settings-whitelabel/logo')?.body as FormData;
    expect([form.get('typeArch'), form.get('mode')]).toEqual(['logo', 'Favicon']);
    const image = (await screen.findByAltText('Favicon')) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('/api/settings-whitelabel/logo/abcdefabcdefabcdefabcdef.png');
  });
});
