import Flex from 'antd/es/flex';
import theme from 'antd/es/theme';
import { type ReactNode, useEffect } from 'react';
import { useThemeMode } from '../../theme/ThemeProvider';
import { useAppLogo } from '../../theme/whitelabel-logos';
import { LanguageSwitch } from './LanguageSwitch';
import { ThemeToggle } from './ThemeToggle';
import { useAppName } from './useAppName';

/** The frame of the public pages (login, signup, password reset, expired subscription): a centred card. */
export function PublicLayout({ title, children }: { title?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  const appName = useAppName();
  const logo = useAppLogo(useThemeMode().mode);
  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, appName]);
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      style={{
        minHeight: '100%',
        background: token.colorBgLayout,
        color: token.colorText,
        fontFamily: token.fontFamily,
        fontSize: token.fontSize,
        padding: '56px 16px 16px',
        boxSizing: 'border-box',
      }}
    >
      <Flex gap={8} align="center" style={{ position: 'absolute', top: 12, right: 12 }}>
        <LanguageSwitch />
        <ThemeToggle />
      </Flex>
      <main
        style={{
          width: '100%',
          maxWidth: 420,
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
          padding: '32px 28px',
          boxSizing: 'border-box',
        }}
      >
        <div
          style={{
            textAlign: 'center',
            color: token.colorPrimary,
            fontSize: token.fontSizeHeading2,
            fontWeight: token.fontWeightStrong,
            marginBottom: 8,
          }}
        >
          {logo ? (
            <img src={logo} alt={appName} style={{ maxWidth: '100%', maxHeight: 72, display: 'block', margin: '0 auto' }} />
          ) : (
            appName
          )}
        </div>
        {title ? (
          <h1
            style={{
              textAlign: 'center',
              fontSize: token.fontSizeHeading4,
              fontWeight: token.fontWeightStrong,
              margin: '0 0 20px',
            }}
          >
            {title}
          </h1>
        ) : null}
        {children}
      </main>
    </Flex>
  );
}
