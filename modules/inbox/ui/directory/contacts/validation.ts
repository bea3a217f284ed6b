/** docs/product/tickets-and-inbox.md#validation bounds of the contacts dialog. */
export const CONTACT_NAME_MIN = 2;
export const CONTACT_NAME_MAX = 250;
export const CONTACT_NUMBER_MIN = 8;
export const CONTACT_NUMBER_MAX = 50;

/** What is wrong with a field, as a translation key under `contacts.validation`. */
export type ContactIssue = 'required' | 'tooShort' | 'tooLong' | 'invalidEmail';

export function validateContactName(value: string | null | undefined): ContactIssue | null {
  const name = (value ?? '').trim();
  if (!name) return 'required';
  if (name.length < CONTACT_NAME_MIN) return 'tooShort';
  if (name.length > CONTACT_NAME_MAX) return 'tooLong';
  return null;
}

/**
 * The number: 8 to 50 digits (the server keeps the digits only, so `+55 (11) …` is fine). `optional`: a
 * contact stored without a number (webchat, Instagram, Facebook) may keep none, so an empty field passes.
 */
export function validateContactNumber(
  value: string | null | undefined,
  { optional = false }: { optional?: boolean } = {},
): ContactIssue | null {
  const number = (value ?? '').replace(/\D/g, '');
  if (!(value ?? '').trim()) return optional ? null : 'required';
  if (number.length < CONTACT_NUMBER_MIN) return 'tooShort';
  if (number.length > CONTACT_NUMBER_MAX) return 'tooLong';
  return null;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The e-mail is optional; when given it must look like one. */
export function validateContactEmail(value: string | null | undefined): ContactIssue | null {
  const email = (value ?? '').trim();
  if (!email) return null;
  return EMAIL_PATTERN.test(email) ? null : 'invalidEmail';
}

/** A number the server masked for LGPD (`*******34`): it can't be edited nor sent back. */
export function isMaskedNumber(number: string | null | undefined): boolean {
  return (number ?? '').includes('*');
}
