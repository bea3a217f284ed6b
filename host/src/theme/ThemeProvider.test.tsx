import { store } from '@balcao/plugin-sdk/ui';
import { render, screen } from '@testing-library/react';
import theme from 'antd/es/theme';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { serveApi } from '../../testing/render-shell';
import { ThemeProvider } from './ThemeProvider';

function Colours() {
  const { token } = theme.useToken();
  return <p data-testid="colours">{`${token.colorPrimary} ${token.colorLink} ${token.colorInfo}`}</p>;
}

describe('the theme', () => {
  it("gives links and info icons the theme's primary colour (the documented #0000FF in light), not antd's default blue", () => {
    serveApi();
    const { unmount } = render(
      <Provider store={store}>
        <ThemeProvider>
          <Colours />
        </ThemeProvider>
      </Provider>,
    );
    expect(screen.getByTestId('colours').textContent?.toUpperCase()).toBe('#0000FF #0000FF #0000FF');
    unmount();
    globalThis.localStorage.setItem('preferredTheme', 'dark');
    render(
      <Provider store={store}>
        <ThemeProvider>
          <Colours />
        </ThemeProvider>
      </Provider>,
    );
    // the dark algorithm derives its primary from #39ACE7 (darker, for contrast); links follow it
    const [primary, link, info] = screen.getByTestId('colours').textContent?.split(' ') ?? [];
    expect(link).toBe(primary);
    expect(info).toBe(primary);
    expect(link?.toUpperCase()).not.toBe('#1677FF');
  });
});
