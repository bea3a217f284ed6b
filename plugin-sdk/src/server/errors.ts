import { CORE_ERRORS, type ErrorCode } from '../shared/errors';

// Shared through a global symbol so that every copy of the SDK in the process sees one registry: each
// code with its status and the feature that registered it ('core' for the catalogue).
const REGISTRY_KEY = Symbol.for('balcao.sdk.errorRegistry');
const globals = globalThis as typeof globalThis & { [REGISTRY_KEY]?: Map<string, { status: number; owner: string }> };
globals[REGISTRY_KEY] ??= new Map(Object.entries(CORE_ERRORS).map(([code, status]) => [code, { status, owner: 'core' }]));
const registry = globals[REGISTRY_KEY];

/** A feature's error codes, each with the HTTP status it answers. */
export type ErrorCodes = Record<`ERR_${string}`, number>;

/**
 * A feature's error codes as a typed map, exported from its `errors.ts` and given to its definition
 * (`definePlugin({ errors })`, or an area's `errors`): the loader registers them when it loads the
 * feature. Defining registers nothing.
 *
 * @example export const kanbanErrors = defineErrors({ ERR_NO_LANE_FOUND: 404 })
 */
export function defineErrors<const T extends ErrorCodes>(codes: T): T {
  return codes;
}

/**
 * Registers `owner`'s codes (the loader does it for every feature's definition). A code belongs to one
 * feature: one registered by the core or by another feature is refused, whatever its status; `owner`
 * registering its own codes again (another app in the same process) is accepted.
 */
export function registerErrors(owner: string, codes: ErrorCodes): void {
  for (const [code, status] of Object.entries(codes)) {
    const existing = registry.get(code);
    if (existing !== undefined && (existing.owner !== owner || existing.status !== status)) {
      throw new Error(`Error code ${code} of ${owner} is already registered by ${existing.owner} with status ${existing.status}`);
    }
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw new Error(`Error code ${code} needs a 4xx or 5xx status`);
  }
  for (const [code, status] of Object.entries(codes)) registry.set(code, { status, owner });
}

/** The HTTP status registered for `code`, or undefined for an unknown code. */
export function statusForError(code: string): number | undefined {
  return registry.get(code)?.status;
}

/** Every registered code with its status and the feature that registered it (for docs and tests). */
export function registeredErrors(): ReadonlyMap<string, { status: number; owner: string }> {
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
    const registered = registry.get(code)?.status;
    if (registered === undefined && status === undefined) {
      throw new Error(
        `Unregistered error code ${code}: give it to the feature's definition (defineErrors, docs/plugin-authoring.md)`,
      );
    }
    this.status = status ?? registered ?? 400;
    this.extra = extra;
  }
}

/** Whether `error` is an AppError from any copy of the SDK in this process. */
export function isAppError(error: unknown): error is AppError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[APP_ERROR_BRAND] === true;
}
