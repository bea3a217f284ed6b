import { render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { errorMessage, showError } from './feedback';
import { registerTranslations, setLanguage } from './i18n';
import { ToastHost } from './ToastHost';

const apiError = (status: number, data: Record<string, unknown>) => ({ status, data });

describe('error messages (docs/product/tickets-and-inbox.md#errors)', () => {
  afterEach(async () => {
    await setLanguage('pt');
  });

  it('translates a known code', () => {
    expect(errorMessage(apiError(401, { error: 'ERR_INVALID_CREDENTIALS' }))).toBe(
      'Erro de autenticação. Por favor, tente novamente.',
    );
  });

  it('shows the raw code when there is no translation', () => {
    expect(errorMessage(apiError(409, { error: 'ERR_SOMETHING_NEW' }))).toBe('ERR_SOMETHING_NEW');
    expect(errorMessage('ERR_SOMETHING_ELSE')).toBe('ERR_SOMETHING_ELSE');
  });

  it("falls back to 'An error occurred!' without a code", () => {
    expect(errorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe('Ocorreu um erro!');
    expect(errorMessage(new Error('boom'))).toBe('Ocorreu um erro!');
    expect(errorMessage(undefined)).toBe('Ocorreu um erro!');
  });

  it("fills in the body's values: retry delay, expiry date", () => {
    expect(errorMessage(apiError(429, { error: 'ERR_TOO_MANY_ATTEMPTS', retryAfter: 42 }))).toBe(
      'Muitas tentativas. Tente novamente em 42 segundos.',
    );
    expect(errorMessage(apiError(402, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-03-09' }))).toBe(
      'Sua assinatura venceu em 09/03/2024, entre em contato com o suporte.',
    );
  });

  it('speaks the chosen language (loaded when first used)', async () => {
    await setLanguage('en');
    expect(errorMessage(apiError(401, { error: 'ERR_INVALID_CREDENTIALS' }))).toBe('Authentication error. Please try again.');
    expect(errorMessage(apiError(402, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-03-09' }))).toBe(
      'subscription expired on 09/03/2024, contact support',
    );
    expect(errorMessage(undefined)).toBe('An error occurred!');
    await setLanguage('tr');
    expect(errorMessage(apiError(403, { error: 'ERR_NO_PERMISSION' }))).toBe('Bu kaynağa erişim izniniz yok.');
  });

  it("finds a feature's own codes in its namespace", async () => {
    await registerTranslations('kanban', {
      pt: { errors: { ERR_LANE_FULL: 'A coluna está cheia' } },
      en: { errors: { ERR_LANE_FULL: 'The lane is full' } },
      es: { errors: { ERR_LANE_FULL: 'La columna está llena' } },
      tr: { errors: { ERR_LANE_FULL: 'Sütun dolu' } },
    });
    expect(errorMessage(apiError(409, { error: 'ERR_LANE_FULL' }))).toBe('A coluna está cheia');
  });

  it('shows the message in a toast, asked for before the toast host is mounted', async () => {
    render(createElement(ToastHost));
    showError(apiError(401, { error: 'ERR_INVALID_CREDENTIALS' }));
    expect(
      await screen.findByText('Erro de autenticação. Por favor, tente novamente.', undefined, { timeout: 8_000 }),
    ).toBeTruthy();
  });
});
