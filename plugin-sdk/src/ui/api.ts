import { createApi } from '@reduxjs/toolkit/query/react';
import type { PlanFlag } from '../shared/plan-flags';
import type { SessionUser } from '../shared/session';
import { createAuthBaseQuery } from './base-query';
import { tokens } from './token-storage';

/** The API base address (a build variable, `/api` by default). */
export const API_BASE: string = typeof __BALCAO_API_BASE__ === 'string' && __BALCAO_API_BASE__ ? __BALCAO_API_BASE__ : '/api';

const auth = createAuthBaseQuery({ baseUrl: API_BASE, tokens });

/**
 * Asks for a new access token with the refresh cookie (shared with any refresh already running).
 * Resolves false when the session can't be renewed.
 */
export const refreshSession = auth.refreshSession;

/** A company's plan as `GET /companies/listPlan/:companyId` answers it. */
export interface CompanyPlan {
  id: number;
  name: string;
  planId: number;
  plan: Record<PlanFlag, boolean> & {
    /** The loaded plugins' own flags, each on or off. */
    pluginFlags?: Record<string, boolean>;
    id: number;
    name: string;
    users: number;
    connections: number;
    queues: number;
    amount: string;
    isPublic: boolean;
  };
}

/**
 * The one RTK Query API of the page. Features add their calls with `api.injectEndpoints` (and tag types
 * with `api.enhanceEndpoints({ addTagTypes })`); socket events patch its cache from `onCacheEntryAdded`.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: auth.baseQuery,
  tagTypes: [] as string[],
  // "reconnect" is the company socket's (see store.ts): back after a drop, what is on screen is read again
  refetchOnReconnect: true,
  endpoints: (build) => ({
    /** `GET /auth/me`: the session user of the stored token. */
    getSessionUser: build.query<SessionUser, void>({ query: () => '/auth/me' }),
    /** `GET /companies/listPlan/:companyId`: the company's plan with its use* flags. */
    getCompanyPlan: build.query<CompanyPlan, number>({ query: (companyId) => `/companies/listPlan/${companyId}` }),
  }),
});

/** The type of the page's API, for helpers that take it. */
export type BalcaoApi = typeof api;

/** React hooks of the core endpoints: the session user (`GET /auth/me`) and the company's plan. */
export const { useGetSessionUserQuery, useGetCompanyPlanQuery } = api;
