import { toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** docs/product/administration.md#companies-plans-and-helps: others get the error toast and go to / after 1 second. */
export const REDIRECT_DELAY_MS = 1000;

/**
 * Whether the session is the super user's; anyone else is told they may not see the page (their role, not
 * the company's plan, refuses it) and sent to / after 1 second.
 */
export function useSuperOnly(): boolean {
  const user = useSession();
  const navigate = useNavigate();
  const { t } = useTranslation('admin');
  const allowed = user?.super === true;
  useEffect(() => {
    if (!user || allowed) return;
    toast.error(t('platform.common.roleRefused'));
    const timer = setTimeout(() => navigate('/'), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [user, allowed, navigate, t]);
  return allowed;
}
