import { useEffect } from 'react';
import { useGetPublicSettingQuery } from '../shell-api';
import type { ThemeMode } from './theme-mode';

/** Where the platform's stored logos are served, without a session (modules/admin, whitelabel). */
export const WHITELABEL_LOGO_PATH = '/api/settings-whitelabel/logo/';

/** What a stored logo's name looks like (anything else is ignored rather than put in a URL). */
const LOGO_NAME = /^[a-f0-9]{24}\.(png|jpg|webp|gif|ico)$/;

function logoAddress(name: unknown): string | null {
  return typeof name === 'string' && LOGO_NAME.test(name) ? `${WHITELABEL_LOGO_PATH}${name}` : null;
}

/** The whitelabel logo of the theme (`appLogoLight` / `appLogoDark`), or null when none is set. */
export function useAppLogo(mode: ThemeMode): string | null {
  const { data } = useGetPublicSettingQuery(mode === 'dark' ? 'appLogoDark' : 'appLogoLight');
  return logoAddress(data);
}

/**
 * Puts the whitelabel favicon (`appLogoFavicon`) in the page's icon link while one is set. A leaf of its
 * own, so that its setting arriving re-renders nothing else.
 */
export function WhitelabelFavicon(): null {
  const { data } = useGetPublicSettingQuery('appLogoFavicon');
  const address = logoAddress(data);
  useEffect(() => {
    if (!address) return;
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]') ?? document.createElement('link');
    const previous = link.getAttribute('href');
    link.rel = 'icon';
    link.href = address;
    if (!link.parentNode) document.head.appendChild(link);
    return () => {
      if (previous) link.setAttribute('href', previous);
    };
  }, [address]);
  return null;
}
