import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setTitleBadge, useTitleBadge } from './document-title';

function Badge() {
  return <span data-testid="badge">{useTitleBadge()}</span>;
}

describe('the tab-title badge', () => {
  it('reaches the shell when a feature sets it, and clears', () => {
    const view = render(<Badge />);
    expect(view.getByTestId('badge').textContent).toBe('');
    act(() => setTitleBadge('③'));
    expect(view.getByTestId('badge').textContent).toBe('③');
    act(() => setTitleBadge(''));
    expect(view.getByTestId('badge').textContent).toBe('');
    view.unmount();
  });
});
