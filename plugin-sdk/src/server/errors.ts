import { CORE_ERRORS, type ErrorCode } from '../shared/errors';

// Shared through a global symbol so that every copy of the SDK in the process sees one registry.
const REGISTRY_KEY = Symbol.for('balcao.sdk.errorRegistry');
const globals = globalThis as typeof globalThis & { [REGISTRY_KEY]?: Map<string, number> };
globals[REGISTRY_KEY] ??= new Map<string, number>(Object.entries(CORE_ERRORS));
const registry: Map<string, number> = globals[REGISTRY_KEY];

/**
 * Registers a feature's own error codes and the HTTP status each maps to. Call it at module load in the
 * feature's server code; registering a code twice with another status is refused.
 *
 * @example defineErrors({ ERR_LANE_LOOP: 400 })
 */
export function defineErrors<const T extends Record<`ERR_${string}`, number>>(codes: T): T {
  for (const [code, status] of Object.entries(codes)) {
    const existing = registry.get(code);
    if (existing !== undefined && existing !== status) {
      throw new Error(`Error code ${code} is already registered with status ${existing}`);
    }
    if (status < 400 || status > 599) throw new Error(`Error code ${code} needs a 4xx or 5xx status`);
    registry.set(code, status);
  }
  return codes;
}

/** The HTTP status registered for `code`, or undefined for an unknown code. */
export function statusForError(code: string): number | undefined {
  return registry.get(code);
}

/** Every registered code with its status (for docs and tests). */
export function registeredErrors(): ReadonlyMap<string, number> {
  return registry;
}

const APP_ERROR_BRAND: unique symbol = Symbol.for('balcao.sdk.appError');

/**
 * A domain error: thrown anywhere in a feature, answered by the core as `{ error: code, ...extra }` with
 * the code's registered status. The code must be registered (core codes always are).
 */
export class AppError extends Error {
  /** Brand that survives duplicate copies of the SDK (see `isAppError`). */
  readonly [APP_ERROR_BRAND] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, extra?: Record<string, unknown>, status?: number) {
    super(code);
    this.name = 'AppError';
    this.code = code;
    const registered = registry.get(code);
    if (registered === undefined && status === undefined) {
      throw new Error(`Unregistered error code ${code}: register it with defineErrors`);
    }
    this.status = status ?? registered ?? 400;
    this.extra = extra;
  }
}

/** Whether `error` is an AppError from any copy of the SDK in this process. */
export function isAppError(error: unknown): error is AppError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[APP_ERROR_BRAND] === true;
}
