import type { WebchatPrechat, WebchatPrechatMode } from '../shared/webchat';

export type PrechatField = keyof WebchatPrechat;
export const PRECHAT_FIELDS: PrechatField[] = ['name', 'email', 'phone'];

export type PrechatValues = Partial<Record<PrechatField, string>>;
/** Per field: `required`, `email` or `phone` (what's wrong with it). */
export type PrechatProblems = Partial<Record<PrechatField, 'required' | 'email' | 'phone'>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with the usual separators and an optional leading +, 8 to 15 digits (E.164's ceiling). */
const PHONE = /^\+?[\d\s().-]+$/;

/** Whether the form is asked at all: some field is not off (an identified visitor skips it). */
export function asksPrechat(prechat: WebchatPrechat): boolean {
  return PRECHAT_FIELDS.some((field) => prechat[field] !== 'off');
}

/** The fields the form shows, with `required` forced on for those the server said were missing. */
export function prechatModes(
  prechat: WebchatPrechat,
  missing: readonly string[] = [],
): Array<[PrechatField, WebchatPrechatMode]> {
  return PRECHAT_FIELDS.map((field): [PrechatField, WebchatPrechatMode] => [
    field,
    missing.includes(field) ? 'required' : prechat[field],
  ]).filter(([, mode]) => mode !== 'off');
}

/** Checks the form as the server will: required fields present, e-mail and phone well formed when given. */
export function validatePrechat(modes: Array<[PrechatField, WebchatPrechatMode]>, values: PrechatValues): PrechatProblems {
  const problems: PrechatProblems = {};
  for (const [field, mode] of modes) {
    const value = (values[field] ?? '').trim();
    if (!value) {
      if (mode === 'required') problems[field] = 'required';
      continue;
    }
    if (field === 'email' && !EMAIL.test(value)) problems.email = 'email';
    if (field === 'phone') {
      const digits = value.replace(/\D/g, '').length;
      if (!PHONE.test(value) || digits < 8 || digits > 15) problems.phone = 'phone';
    }
  }
  return problems;
}

/** The session body's fields: trimmed, the empty ones left out. */
export function prechatBody(values: PrechatValues): PrechatValues {
  const body: PrechatValues = {};
  for (const field of PRECHAT_FIELDS) {
    const value = (values[field] ?? '').trim();
    if (value) body[field] = value;
  }
  return body;
}
