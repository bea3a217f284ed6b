/** Why a field of the public forms is invalid; each has a translated message under `validation.<issue>`. */
export type ValidationIssue = 'required' | 'tooShort' | 'tooLong' | 'invalidEmail' | 'weakPassword' | 'passwordMismatch';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** docs/product/administration.md#validation: at least 8 characters with an uppercase letter, a lowercase letter and a digit. */
const STRONG_PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/;

/** Required, between `min` and `max` characters (trimmed). */
export function checkLength(value: string | undefined, min: number, max: number): ValidationIssue | null {
  const text = (value ?? '').trim();
  if (text.length === 0) return 'required';
  if (text.length < min) return 'tooShort';
  if (text.length > max) return 'tooLong';
  return null;
}

/** Required and shaped like an e-mail address. */
export function checkEmail(value: string | undefined): ValidationIssue | null {
  const text = (value ?? '').trim();
  if (text.length === 0) return 'required';
  return EMAIL.test(text) ? null : 'invalidEmail';
}

/** Present (a non-blank text, or any chosen value). */
export function checkRequired(value: unknown): ValidationIssue | null {
  if (value === undefined || value === null) return 'required';
  if (typeof value === 'string' && value.trim().length === 0) return 'required';
  return null;
}

/** The reset's new password: required, 8+ characters with an uppercase letter, a lowercase letter and a digit. */
export function checkStrongPassword(value: string | undefined): ValidationIssue | null {
  if (!value) return 'required';
  return STRONG_PASSWORD.test(value) ? null : 'weakPassword';
}

/** The confirmation must repeat the new password. */
export function checkConfirmation(password: string | undefined, confirmation: string | undefined): ValidationIssue | null {
  if (!confirmation) return 'required';
  return password === confirmation ? null : 'passwordMismatch';
}

/** The signup form's values. */
export interface SignupValues {
  companyName?: string;
  name?: string;
  email?: string;
  password?: string;
  phone?: string;
  planId?: number;
}

/** docs/product/tickets-and-inbox.md#validation / docs/product/administration.md#validation signup rules, field by field. */
export const SIGNUP_RULES: { [Field in keyof Required<SignupValues>]: (value: SignupValues[Field]) => ValidationIssue | null } = {
  companyName: (value) => checkLength(value, 2, 50),
  name: (value) => checkLength(value, 2, 50),
  email: (value) => checkEmail(value),
  password: (value) => checkLength(value, 5, 50),
  phone: (value) => checkRequired(value),
  planId: (value) => checkRequired(value),
};

/** Every issue of a signup form, by field (empty when the form is valid). */
export function validateSignup(values: SignupValues): Partial<Record<keyof SignupValues, ValidationIssue>> {
  const issues: Partial<Record<keyof SignupValues, ValidationIssue>> = {};
  for (const field of Object.keys(SIGNUP_RULES) as Array<keyof SignupValues>) {
    const issue = (SIGNUP_RULES[field] as (value: unknown) => ValidationIssue | null)(values[field]);
    if (issue) issues[field] = issue;
  }
  return issues;
}
