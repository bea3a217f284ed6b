import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultSchedules, type ServiceHours } from '../shared/service-hours';
import { i18n, setLanguage } from './i18n';
import { dayProblem, hoursValid, ServiceHoursEditor } from './service-hours';

function Week({ initial }: { initial: ServiceHours[] }) {
  const [days, setDays] = useState(initial);
  return (
    <I18nextProvider i18n={i18n}>
      <ServiceHoursEditor value={days} onChange={setDays} />
      <span data-testid="valid">{String(hoursValid(days))}</span>
    </I18nextProvider>
  );
}

describe('the shared service-hours editor', () => {
  beforeAll(() => setLanguage('pt'));

  it('edits two shifts per weekday (HH:MM) and names the problem of a day', async () => {
    render(<Week initial={defaultSchedules()} />);
    // the table is a lazy chunk: its first import (antd's table and inputs) took over 5 s on a slow CI machine
    const mondayEnd = (await screen.findByLabelText(
      'Segunda-feira — Fim (turno 1)',
      {},
      { timeout: 20_000 },
    )) as HTMLInputElement;
    expect(mondayEnd.value).toBe('12:00');
    expect(screen.getByTestId('valid').textContent).toBe('true');
    fireEvent.change(mondayEnd, { target: { value: '07:00' } });
    expect(await screen.findByText('O turno precisa terminar depois de começar.')).toBeTruthy();
    expect(screen.getByTestId('valid').textContent).toBe('false');
  });

  it('tells an incomplete shift from a reversed one; empty shifts are closed', () => {
    const [day] = defaultSchedules() as [ServiceHours];
    expect(dayProblem({ ...day, startTimeB: '', endTimeB: '' })).toBeNull();
    expect(dayProblem({ ...day, endTimeB: '' })).toBe('incomplete');
    expect(dayProblem({ ...day, startTimeA: '12:00', endTimeA: '08:00' })).toBe('order');
  });
});
