/**
 * The assistant's voices: `texto` answers in text; the others are Brazilian Portuguese neural voices of a
 * speech service (Azure's names), the answer then sent as a voice note.
 */
export const VOICE_NAMES = [
  'Francisca',
  'Antonio',
  'Brenda',
  'Donato',
  'Elza',
  'Fabio',
  'Giovanna',
  'Humberto',
  'Julio',
  'Leila',
  'Leticia',
  'Manuela',
  'Nicolau',
  'Valerio',
  'Yara',
] as const;

export const VOICES = ['texto', ...VOICE_NAMES.map((name) => `pt-BR-${name}Neural`)] as const;
export type Voice = (typeof VOICES)[number];

/** The defaults of a new prompt. */
export const PROMPT_DEFAULTS = { maxTokens: 100, temperature: 1, maxMessages: 10, voice: 'texto' } as const;

/** The documented marker an answer carries when the assistant hands the customer to people. */
export const HANDOVER_MARKER = '[[ATENDENTE]]';
