/**
 * The one registry of error codes. Every error the API returns is `{ "error": "ERR_..." }` with the
 * status below; the UI translates the code (docs/product/tickets-and-inbox.md#errors). Each feature defines its own codes
 * with `defineErrors` in its `errors.ts` and gives them to its definition (docs/plugin-authoring.md, "Errors");
 * a code belongs to the core or to one feature.
 */
export const CORE_ERRORS = {
  // docs/product/tickets-and-inbox.md#errors
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 400,
  ERR_CREATING_TICKET: 400,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  ERR_OUT_OF_HOURS: 400,
  // Balcão's own
  ERR_VALIDATION: 400,
  ERR_BAD_REQUEST: 400,
  ERR_UNAUTHENTICATED: 401,
  ERR_TOKEN_EXPIRED: 403,
  ERR_TOKEN_INVALID: 401,
  ERR_HEADERS_TOO_LARGE: 431,
  ERR_REQUEST_TIMEOUT: 408,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_SUBSCRIPTION_EXPIRED: 402,
  ERR_COMPANY_INACTIVE: 403,
  ERR_NOT_FOUND: 404,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_PLAN_FOUND: 404,
  ERR_CONFLICT: 409,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_SIGNUP_DISABLED: 403,
  ERR_INVALID_RESET_CODE: 400,
  ERR_PLAN_NOT_PUBLIC: 400,
  ERR_TOO_MANY_ATTEMPTS: 429,
  ERR_RATE_LIMITED: 429,
  ERR_API_KEY_INVALID: 401,
  ERR_API_KEY_REVOKED: 401,
  ERR_API_KEY_SCOPE: 403,
  ERR_NO_API_KEY_FOUND: 404,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_METHOD_NOT_ALLOWED: 405,
  ERR_INTERNAL: 500,
  ERR_SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

/** A core error code. Features' codes are plain `ERR_*` strings registered at load time. */
export type CoreErrorCode = keyof typeof CORE_ERRORS;

/** Any registered error code. */
export type ErrorCode = CoreErrorCode | `ERR_${string}`;

/** The JSON body of every error answer. */
export interface ErrorBody {
  error: ErrorCode;
  /** For ERR_VALIDATION: which fields failed and why. */
  details?: Array<{ field: string; message: string }>;
  /** Extra data some errors carry (the expiry date, the other ticket's holder …). */
  [extra: string]: unknown;
}
