import { toast, usePlan, useTranslation } from '@balcao/plugin-sdk/ui';
import { type ReactNode, useEffect } from 'react';
import { useNavigate } from 'react-router';

/** The documented redirect after the plan-gate toast (docs/product/automation.md#errors): one second. */
export const PLAN_REDIRECT_MS = 1_000;

/**
 * The schedules page: a company whose plan lost useSchedules gets the documented toast and goes to / after
 * a second. The server refuses it anyway.
 */
export function SchedulesGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation('schedules');
  const navigate = useNavigate();
  const plan = usePlan();
  const planDenied = plan !== undefined && !plan.useSchedules;
  useEffect(() => {
    if (!planDenied) return;
    toast.error(t('planDenied'), 'top-center');
    const timer = setTimeout(() => navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [planDenied, navigate, t]);
  if (planDenied) return null;
  return <>{children}</>;
}

/** `datetime-local` text of an instant (local time), and back to ISO. */
export function toLocalInput(iso: string | Date | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function fromLocalInput(text: string): string {
  return new Date(text).toISOString();
}

/** Date and time as the product writes them: DD/MM/YYYY HH:mm (docs/product/automation.md#constants-and-limits). */
export function dateTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
