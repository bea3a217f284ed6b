/** docs/product/tickets-and-inbox.md#validation / docs/product/administration.md#validation: the three strength levels of the login's password bar. */
export type StrengthLevel = 'weak' | 'medium' | 'strong';

/** The highest score that still counts as weak (and asks before logging in). */
export const WEAK_PASSWORD_MAX_SCORE = 2;

/** The highest possible score. */
export const MAX_PASSWORD_SCORE = 5;

/** One point each for 8 or more characters, an uppercase letter, a lowercase letter, a digit and a symbol. */
export function passwordScore(password: string): number {
  let score = 0;
  if (password.length >= 8) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/[a-z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  return score;
}

/** Score 2 or lower is weak, 3–4 medium, 5 strong. */
export function strengthLevel(score: number): StrengthLevel {
  if (score <= WEAK_PASSWORD_MAX_SCORE) return 'weak';
  return score >= MAX_PASSWORD_SCORE ? 'strong' : 'medium';
}
