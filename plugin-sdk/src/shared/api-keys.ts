/**
 * API keys for machine clients (docs/api.md "API keys"): what a key may do is a list of scopes, and a
 * route accepts a key only when it declares the scope it needs (`config.apiKeyScope`).
 */
export const API_KEY_SCOPES = ['tickets:read', 'messages:send', 'contacts:read', 'contacts:manage'] as const;

/** One of the scopes a key can hold. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** How every API key starts: it tells a key from a session's access token at a glance (and to secret scanners). */
export const API_KEY_PREFIX = 'blc_';

/** An API key as its company's admins see it: never its secret, which is shown once, at creation. */
export interface ApiKeyInfo {
  id: number;
  name: string;
  scopes: ApiKeyScope[];
  /** The key's first characters (`blc_12_ab3…`), to recognise it in a list. */
  hint: string;
  createdAt: string;
  /** The admin who created it: the key acts as them. */
  createdBy: { id: number; name: string } | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
