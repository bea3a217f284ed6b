import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { BrowserRouter, Route, Routes, useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useLeaveGuard } from './leave-guard';

const TEXTS = { title: 'Sair sem salvar?', content: 'Perderá as alterações.', okText: 'Sair', cancelText: 'Ficar' };

/** A page with work that may be unsaved, on the router the shell uses. */
function Editor({ changed }: { changed: () => boolean }) {
  const navigate = useNavigate();
  const holder = useLeaveGuard(changed, TEXTS);
  return (
    <>
      {holder}
      <button type="button" onClick={() => navigate('/outra')}>
        outra
      </button>
      <button type="button" onClick={() => navigate('/editor?aba=2')}>
        aba
      </button>
    </>
  );
}

function App({ changed }: { changed: () => boolean }) {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/editor" element={<Editor changed={changed} />} />
        <Route path="/outra" element={<p>outra página</p>} />
      </Routes>
    </BrowserRouter>
  );
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('useLeaveGuard', () => {
  it('asks before another page opens with changes pending, and goes there only when confirmed', async () => {
    window.history.replaceState(null, '', '/editor');
    render(<App changed={() => true} />);
    fireEvent.click(screen.getByText('outra'));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(screen.getAllByText('Sair sem salvar?').length).toBeGreaterThan(0);
    expect(window.location.pathname).toBe('/editor');
    fireEvent.click(screen.getByRole('button', { name: 'Ficar' }));
    expect(window.location.pathname).toBe('/editor');

    // asked again (the closed confirmation may still be fading out: the new one is the last)
    const closing = screen.queryAllByRole('button', { name: 'Sair' }).length;
    fireEvent.click(screen.getByText('outra'));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Sair' })).toHaveLength(closing + 1));
    fireEvent.click(screen.getAllByRole('button', { name: 'Sair' }).at(-1) as HTMLElement);
    expect(await screen.findByText('outra página')).toBeTruthy();
    expect(window.location.pathname).toBe('/outra');
    // the page is gone: the router writes the address unguarded again
    expect(Object.hasOwn(window.history, 'pushState')).toBe(false);
  });

  it('lets moves within the page and moves without changes through', async () => {
    window.history.replaceState(null, '', '/editor');
    let changed = true;
    render(<App changed={() => changed} />);
    fireEvent.click(screen.getByText('aba'));
    await waitFor(() => expect(window.location.search).toBe('?aba=2'));
    expect(screen.queryAllByText('Sair sem salvar?')).toHaveLength(0);
    changed = false;
    fireEvent.click(screen.getByText('outra'));
    expect(await screen.findByText('outra página')).toBeTruthy();
    expect(screen.queryAllByText('Sair sem salvar?')).toHaveLength(0);
  });
});
