/**
 * The UI side of the plugin SDK: the only thing feature UIs (modules bundled into the host, and plugin
 * remotes) import from the shell. It is shared as a Module Federation singleton, so the store, the RTK
 * Query `api`, the company socket and the i18n instance below exist once per page.
 * @packageDocumentation
 */

export { skipToken } from '@reduxjs/toolkit/query/react';
export { Trans, useTranslation } from 'react-i18next';
export { API_KEY_SCOPES, type ApiKeyInfo, type ApiKeyScope } from '../shared/api-keys';
export { type MarkupSegment, parseChatMarkup, plainChatText } from '../shared/chat-markup';
export type { Permission, PermissionSubject, PermissionTable, Profile } from '../shared/permissions';
export { CORE_PERMISSION_TABLE, can } from '../shared/permissions';
export type { AnyPlanFlag, PlanFlag, PlanFlags, PluginPlanFlag } from '../shared/plan-flags';
export { PLAN_FLAGS } from '../shared/plan-flags';
export { CLIENT_EVENTS, companyEvent } from '../shared/realtime';
export { defaultSchedules, invalidScheduleDay, type ServiceHours } from '../shared/service-hours';
export type { AuthResponse, MenuEntry, MenuGroup, PluginListing, SessionUser } from '../shared/session';
export { EXTENSION_SLOT_NAMES } from '../shared/slot-names';
export {
  API_BASE,
  api,
  type BalcaoApi,
  type CompanyPlan,
  refreshSession,
  useGetCompanyPlanQuery,
  useGetSessionUserQuery,
} from './api';
export {
  type AuthBaseQuery,
  type AuthBaseQueryKit,
  type AuthBaseQueryOptions,
  createAuthBaseQuery,
  errorCodeOf,
} from './base-query';
export { daysUntil, formatDate } from './dates';
export {
  activatePluginUi,
  definePluginUi,
  isPluginUi,
  type MenuBadge,
  type PluginUi,
  type PluginUiOptions,
  type PluginUiSlots,
  type UiMenuEntry,
  type UiRoute,
  type UserMenuItem,
} from './define-plugin-ui';
export { setTitleBadge, useTitleBadge } from './document-title';
export {
  errorMessage,
  showError,
  TOAST_DURATION_SECONDS,
  TOP_CENTER_TOAST_DURATION_SECONDS,
  type ToastApis,
  type ToastKind,
  type ToastPlacement,
  toast,
} from './feedback';
export {
  Can,
  type CanProps,
  useAppDispatch,
  useAppSelector,
  useCompanySocketConnection,
  usePermission,
  usePlan,
  usePlanFlag,
  useSession,
  useSessionState,
} from './hooks';
export {
  CORE_NAMESPACE,
  currentLanguage,
  i18n,
  loadLanguage,
  localized,
  registerTranslations,
  setLanguage,
  translationNamespaces,
} from './i18n';
export {
  DEFAULT_LANGUAGE,
  type FeatureTranslations,
  isLanguage,
  LANGUAGES,
  type Language,
  type TranslationSource,
  type TranslationTree,
} from './languages';
export {
  effectiveSearch,
  InfiniteScroll,
  type InfiniteScrollProps,
  LOAD_MORE_THRESHOLD_PX,
  type LoadMoreState,
  SEARCH_DEBOUNCE_MS,
  useDebouncedValue,
  useLoadMoreOnScroll,
  useNarrowScreen,
  usePagedSearch,
} from './paged-lists';
export { permissionTable, registerPermissions } from './permissions';
export {
  type CacheEntryLifecycle,
  type CompanySocketOptions,
  connectCompanySocket,
  disconnectCompanySocket,
  emitSocketEvent,
  getCompanySocket,
  joinSocketRoom,
  SOCKET_RECONNECT_DELAY_MS,
  type SocketEventHandler,
  type SocketEventRef,
  streamSocketEvent,
  subscribeSocketEvent,
  subscribeSocketResync,
  USER_STATUS_INTERVAL_MS,
} from './realtime';
export { dayProblem, hoursValid, ServiceHoursEditor, type ServiceHoursEditorProps } from './service-hours';
export {
  expiredDueDate,
  type SessionEndReason,
  type SessionState,
  type SessionStatus,
  selectSession,
  selectSessionUser,
  sessionEnded,
  sessionStarted,
  sessionUserChanged,
  subscriptionExpired,
} from './session-slice';
export {
  type ComponentSlotName,
  type ComponentSlotProps,
  type ExtensionSlotName,
  type ExtensionSlots,
  PluginSlot,
  PluginSlotMount,
  type PluginSlotProps,
  type SettingsTabContribution,
  type SlotContact,
  type SlotContactSummary,
  type SlotContribution,
  type SlotEntry,
  type SlotGate,
  type SlotHost,
  SlotHostContext,
  type SlotMessage,
  type SlotMountProps,
  type SlotTag,
  type SlotTicket,
  useSlotEntries,
} from './slots';
export { type AppDispatch, injectSlice, type RootState, rootReducer, store } from './store';
export { ToastHost } from './ToastHost';
export { TOKEN_KEY, type TokenStore, tokens } from './token-storage';
export { readVolume, storeVolume } from './volume';
