import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, serveApi, signIn } from '../testing/render';
import PromptsPage from './PromptsPage';

describe('the prompts page', () => {
  beforeEach(() => signIn());

  it('offers a retry when the usage fails to load, then shows the usage', async () => {
    let usageFails = true;
    const calls = serveApi((call) => {
      if (call.path === '/prompt') return { status: 200, body: { prompts: [] } };
      if (call.path === '/prompt-usage')
        return usageFails
          ? { status: 500, body: { error: 'ERR_INTERNAL' } }
          : { status: 200, body: { days: [], month: { tokensIn: 1200, tokensOut: 34 }, monthlyTokenCap: null } };
      return undefined;
    });
    renderPage(<PromptsPage />, '/prompts');
    expect(await screen.findByText('Não foi possível carregar o uso de tokens.')).toBeTruthy();
    usageFails = false;
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText(/Neste mês: 1.?234 tokens/)).toBeTruthy();
    expect(calls.filter((call) => call.path === '/prompt-usage').length).toBeGreaterThanOrEqual(2);
  });
});
