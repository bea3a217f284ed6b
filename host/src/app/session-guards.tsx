import {
  sessionEnded,
  sessionStarted,
  tokens,
  useAppDispatch,
  useGetSessionUserQuery,
  useSessionState,
} from '@balcao/plugin-sdk/ui';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSkeleton } from './PageSkeleton';
import { postLoginDestination } from './post-login';

/**
 * Restores a session from a stored token (`GET /auth/me`, through the refresh rules of the base query).
 * Refused tokens end the session there; a server that can't be reached keeps the token and offers a retry.
 */
function useSessionRestore(): { failed: boolean; retry(): void } {
  const { status } = useSessionState();
  const dispatch = useAppDispatch();
  const restoring = status === 'restoring';
  const { data, error, refetch } = useGetSessionUserQuery(undefined, { skip: !restoring });
  useEffect(() => {
    if (restoring && data) dispatch(sessionStarted(data));
  }, [restoring, data, dispatch]);
  const refused =
    typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' && error.status < 500;
  useEffect(() => {
    if (restoring && refused) {
      tokens.clear();
      dispatch(sessionEnded('expired'));
    }
  }, [restoring, refused, dispatch]);
  return { failed: restoring && error !== undefined && !refused, retry: () => void refetch() };
}

function Restoring({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  const { status } = useSessionState();
  const { failed, retry } = useSessionRestore();
  if (status !== 'restoring') return children;
  if (!failed) return <PageSkeleton />;
  return (
    <Flex vertical justify="center" align="center" gap={12} style={{ minHeight: '100%' }}>
      <span>{t('session.unreachable')}</span>
      <Button type="primary" onClick={retry}>
        {t('session.retry')}
      </Button>
    </Flex>
  );
}

/**
 * /financeiro-aberto: for a signed-in company whose subscription expired, its pay screen; for one that
 * paid meanwhile, /; without a session, the expiry notice the login or the server left.
 */
export function ExpiredOnly({ payScreen, notice }: { payScreen: ReactNode; notice: ReactNode }) {
  const { status, subscriptionDueDate } = useSessionState();
  let shown = notice;
  if (status === 'authenticated') shown = subscriptionDueDate !== null ? payScreen : <Navigate to="/" replace />;
  return <Restoring>{shown}</Restoring>;
}

/** Public routes (docs/product/tickets-and-inbox.md#screens-and-routes): an authenticated user goes to / (or to /tickets right after logging in). */
export function PublicOnly() {
  const { status } = useSessionState();
  return <Restoring>{status === 'authenticated' ? <Navigate to={postLoginDestination()} replace /> : <Outlet />}</Restoring>;
}

/**
 * Private routes (docs/product/tickets-and-inbox.md#screens-and-routes): without a session, /login; when the server ended it for an expired
 * subscription (docs/product/tickets-and-inbox.md#states-and-transitions), /financeiro-aberto with the due date.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { status, endedBy, subscriptionDueDate } = useSessionState();
  const location = useLocation();
  let shown: ReactNode = children;
  // an expired company's session reaches only the pay screen (docs/product/administration.md#expired-subscription)
  if (status === 'authenticated' && subscriptionDueDate !== null) {
    shown = <Navigate to={`/financeiro-aberto${location.search}`} replace />;
  } else if (status !== 'authenticated') {
    shown =
      endedBy === 'subscription' ? (
        <Navigate to="/financeiro-aberto" replace state={{ dueDate: subscriptionDueDate }} />
      ) : (
        <Navigate to="/login" replace state={{ from: location.pathname }} />
      );
  }
  return <Restoring>{shown}</Restoring>;
}
