import { api, store } from '@balcao/plugin-sdk/ui';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderShell, serveApi } from '../../testing/render-shell';
import { PublicLayout } from '../pages/public/PublicLayout';

const LOGO = 'abcdefabcdefabcdefabcdef.png';
const FAVICON = '0123456789abcdef01234567.ico';

describe('whitelabel logos', () => {
  beforeEach(() => {
    store.dispatch(api.util.resetApiState());
    for (const link of document.head.querySelectorAll('link[rel="icon"]')) link.remove();
  });

  it('shows the light logo on the login card and puts the favicon in the icon link', async () => {
    serveApi(({ path }) => {
      if (path === '/public-settings/appLogoLight') return { status: 200, body: LOGO };
      if (path === '/public-settings/appLogoFavicon') return { status: 200, body: FAVICON };
      if (path === '/public-settings/appName') return { status: 200, body: 'Atende Já' };
      return undefined;
    });
    renderShell(<PublicLayout title="Entrar">form</PublicLayout>);
    const logo = (await screen.findByAltText('Atende Já')) as HTMLImageElement;
    expect(logo.getAttribute('src')).toBe(`/api/settings-whitelabel/logo/${LOGO}`);
    await waitFor(() =>
      expect(document.head.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe(
        `/api/settings-whitelabel/logo/${FAVICON}`,
      ),
    );
  });

  it('keeps the app name and the default icon when no logo is set, and ignores odd names', async () => {
    serveApi(({ path }) => (path === '/public-settings/appLogoLight' ? { status: 200, body: '../../etc/passwd' } : undefined));
    renderShell(<PublicLayout title="Entrar">form</PublicLayout>);
    expect(await screen.findByText('Balcão')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
    expect(document.head.querySelector('link[rel="icon"]')).toBeNull();
  });
});
