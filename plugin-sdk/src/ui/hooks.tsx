import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { can, type Permission } from '../shared/permissions';
import type { AnyPlanFlag, PlanFlags } from '../shared/plan-flags';
import { PLAN_FLAGS } from '../shared/plan-flags';
import type { SessionUser } from '../shared/session';
import { refreshSession, useGetCompanyPlanQuery } from './api';
import { permissionTable } from './permissions';
import { connectCompanySocket, disconnectCompanySocket } from './realtime';
import { type SessionState, sessionEnded } from './session-slice';
import type { AppDispatch, RootState } from './store';
import { tokens } from './token-storage';

/** `useSelector` typed with the page's state. */
export const useAppSelector = useSelector.withTypes<RootState>();
/** `useDispatch` typed with the page's dispatch. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();

/** The session user (docs/product/tickets-and-inbox.md#entities), or null when nobody is logged in. */
export function useSession(): SessionUser | null {
  return useAppSelector((state) => state.session.user);
}

/** The whole session state: status (`restoring`, `authenticated`, `anonymous`), user and why it ended. */
export function useSessionState(): SessionState {
  return useAppSelector((state) => state.session);
}

/**
 * The plan flags of the session's company (`GET /companies/listPlan/:companyId`), or undefined while they
 * load or without a session.
 */
export function usePlan(): PlanFlags | undefined {
  const companyId = useSession()?.companyId;
  const { data } = useGetCompanyPlanQuery(companyId ?? 0, { skip: companyId === undefined });
  if (!data) return undefined;
  return {
    ...data.plan.pluginFlags,
    ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, data.plan[flag] === true])),
  } as PlanFlags;
}

/** Whether the company's plan has `flag` (false while the plan loads). */
export function usePlanFlag(flag: AnyPlanFlag): boolean {
  return usePlan()?.[flag] === true;
}

/** Whether the session user holds `permission` (docs/product/roles-and-permissions.md#roles-in-the-inbox, through the shared `can()`). */
export function usePermission(permission: Permission): boolean {
  const user = useSession();
  return user !== null && can(user, permission, permissionTable());
}

/** Props of `<Can>`. */
export interface CanProps {
  permission: Permission;
  children: ReactNode;
  /** What to show instead (nothing by default). */
  fallback?: ReactNode;
}

/** Renders its children only for holders of `permission`. */
export function Can({ permission, children, fallback = null }: CanProps): ReactNode {
  return usePermission(permission) ? children : fallback;
}

/**
 * Keeps the company socket open while a session exists (the host's frame calls it once). A handshake
 * refused for an expired token renews it; a revoked session ends here too.
 */
export function useCompanySocketConnection(): void {
  const user = useSession();
  const dispatch = useAppDispatch();
  const companyId = user?.companyId;
  const userId = user?.id;
  useEffect(() => {
    if (companyId === undefined || userId === undefined) return;
    void connectCompanySocket({
      companyId,
      userId,
      readToken: () => tokens.read(),
      renewToken: () => refreshSession(dispatch),
      onSessionRefused: () => {
        tokens.clear();
        dispatch(sessionEnded('expired'));
      },
    });
    return () => disconnectCompanySocket();
  }, [companyId, userId, dispatch]);
}
