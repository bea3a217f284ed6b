import { currentLanguage, type Language, ToastHost, useSession } from '@balcao/plugin-sdk/ui';
import ConfigProvider from 'antd/es/config-provider';
import type { Locale } from 'antd/es/locale';
// antd's built-in texts, already part of its core: a stand-in until the interface language's pack arrives
import enUS from 'antd/es/locale/en_US';
import theme from 'antd/es/theme';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetPublicSettingQuery } from '../shell-api';
import {
  isHexColor,
  PRIMARY_COLOR_SETTING,
  storedPrimaryColor,
  storedThemeMode,
  storePrimaryColor,
  storeThemeMode,
  type ThemeMode,
} from './theme-mode';
import { WhitelabelFavicon } from './whitelabel-logos';

/** antd's own texts per language, loaded when a language is used (none is needed to paint the login). */
const ANTD_LOCALES: Record<Language, () => Promise<{ default: Locale }>> = {
  pt: () => import('antd/es/locale/pt_BR'),
  en: () => import('antd/es/locale/en_US'),
  es: () => import('antd/es/locale/es_ES'),
  tr: () => import('antd/es/locale/tr_TR'),
};

/**
 * The antd locale of the interface language. Never undefined: ConfigProvider wraps its children in one
 * more provider when it has a locale, so a locale arriving later would remount the whole page (and drop
 * what the user was typing, or the router's state).
 */
function useAntdLocale(language: Language): Locale {
  const [locale, setLocale] = useState<Locale>(enUS);
  useEffect(() => {
    let alive = true;
    void ANTD_LOCALES[language]().then((loaded) => {
      if (alive) setLocale(loaded.default);
    });
    return () => {
      alive = false;
    };
  }, [language]);
  return locale;
}

interface ThemeModeContextValue {
  mode: ThemeMode;
  toggle(): void;
}

const ThemeModeContext = createContext<ThemeModeContextValue>({ mode: 'light', toggle: () => {} });

/** The current theme and the light/dark toggle. */
export function useThemeMode(): ThemeModeContextValue {
  return useContext(ThemeModeContext);
}

/** The whitelabel primary colour of a theme: last seen locally, then refreshed from the public settings. */
function usePrimaryColor(mode: ThemeMode): string {
  const { data } = useGetPublicSettingQuery(PRIMARY_COLOR_SETTING[mode]);
  const color = isHexColor(data) ? data : storedPrimaryColor(mode);
  useEffect(() => {
    if (isHexColor(data)) storePrimaryColor(mode, data);
  }, [data, mode]);
  return color;
}

/**
 * The one antd theme of the page (docs/product/tickets-and-inbox.md#constants-and-limits colours, whitelabel overrides, light/dark stored locally,
 * else the user's `defaultTheme`) and antd's own texts in the interface language.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const user = useSession();
  const [chosen, setChosen] = useState<ThemeMode | null>(storedThemeMode);
  const mode: ThemeMode = chosen ?? user?.defaultTheme ?? 'light';
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage as Language | undefined) ?? currentLanguage();
  const locale = useAntdLocale(language);
  const primary = usePrimaryColor(mode);

  const toggle = useCallback(() => {
    const next: ThemeMode = mode === 'light' ? 'dark' : 'light';
    storeThemeMode(next);
    setChosen(next);
  }, [mode]);

  const themeConfig = useMemo(
    () => ({
      algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
      // links take the theme's colour too (antd derives them from its default blue otherwise)
      // links and informational icons (the 'unavailable' page) in the theme's colour, not antd's blue
      token: { colorPrimary: primary, colorLink: primary, colorInfo: primary },
    }),
    [mode, primary],
  );

  useEffect(() => {
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  const value = useMemo(() => ({ mode, toggle }), [mode, toggle]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ConfigProvider theme={themeConfig} locale={locale}>
        {children}
        <ToastHost />
        <WhitelabelFavicon />
      </ConfigProvider>
    </ThemeModeContext.Provider>
  );
}
