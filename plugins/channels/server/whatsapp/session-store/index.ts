/**
 * Where a WhatsApp session's secrets live (Postgres, fenced by the session's lease) and which process may run
 * the session (a renewable lease with an increasing epoch). See README.md.
 */
export {
  deleteAuthState,
  hasCreds,
  type PostgresAuthState,
  type PostgresAuthStateOptions,
  usePostgresAuthState,
} from './auth-state';
export { decodeSessionValue, encodeSessionValue, SIGNAL_KEY_TYPES, type SignalKeyType } from './codec';
export type { KeyCacheOptions, KeyCacheStats } from './key-cache';
export {
  type ConnectionsToRun,
  type ConnectionWithoutLease,
  connectionsWithoutLease,
  createSessionLeases,
  type LeaseHolder,
  LeaseLostError,
  type LeaseLostReason,
  newLeaseOwnerId,
  type SessionLease,
  type SessionLeases,
  type SessionLeasesOptions,
  type SessionStoreLogger,
} from './leases';
