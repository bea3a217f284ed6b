import { WAITING_TEXTS } from '../../../shared/chatbot-texts';

/**
 * When the chatbot stops asking and the conversation waits for people (docs/decisions.md, "The chatbot at
 * work": "When the bot hands over"): its limits are spent, or the contact plainly asked a question instead
 * of choosing. The contact is told so once, in the company's `chatbotWaitingMessage` or the product's text.
 */

export { WAITING_TEXTS };

/** The message the contact gets when the bot hands over: the company's, else the product's. */
export function waitingMessage(settings: Record<string, string>): string {
  const own = (settings.chatbotWaitingMessage ?? '').trim();
  return own !== '' ? own : WAITING_TEXTS.pt;
}

/** Words that open a question in the four languages (compared without accents, lower case). */
const QUESTION_OPENERS = new Set([
  // pt
  'como',
  'quanto',
  'quantos',
  'quantas',
  'qual',
  'quais',
  'quando',
  'onde',
  'porque',
  'por que',
  'quem',
  'o que',
  'voces',
  'vcs',
  'tem',
  'posso',
  'pode',
  'podem',
  'gostaria',
  'preciso',
  'quero saber',
  // en
  'how',
  'what',
  'when',
  'where',
  'why',
  'who',
  'which',
  'can',
  'could',
  'do',
  'does',
  'is',
  'are',
  'would',
  'i need',
  'i want',
  // es
  'cuanto',
  'cuantos',
  'cual',
  'cuales',
  'cuando',
  'donde',
  'por que',
  'quien',
  'que',
  'tienen',
  'puedo',
  'necesito',
  'quisiera',
  // tr
  'nasil',
  'ne',
  'neden',
  'nerede',
  'kim',
  'hangi',
  'kac',
]);

/**
 * Turkish puts its question words and particles late (`fiyat ne kadar`, `kargo var mi`): these make a
 * question wherever they stand (ne, nasil) or as the last word (the particles).
 */
const TURKISH_ANYWHERE = new Set(['ne', 'nasil', 'neden', 'nerede', 'hangi', 'kac']);
const TURKISH_PARTICLES = new Set(['mi', 'mu', 'misin', 'musun', 'misiniz', 'musunuz', 'midir', 'mudur']);

/** How many words make an answer a sentence rather than an attempt at an option. */
export const SENTENCE_WORDS = 4;

const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // the dotless ı has no accent to drop
    .replace(/ı/g, 'i');

/**
 * Whether an answer to a menu is plainly a question (or a request) rather than an option: it has a question
 * mark (`?`, `¿`), or it is a sentence (SENTENCE_WORDS words or more), or it opens with a question word of
 * pt, en or es (`quanto custa`, `how much`), or has a Turkish one (`fiyat ne kadar`, `kargo var mı`). Short answers that are none of these — `oi`, `vendas`,
 * `9` — are taken as a missed choice: the menu comes again (within the bot's limits).
 */
export function looksLikeQuestion(body: string): boolean {
  const text = plain(body.trim());
  if (text === '') return false;
  if (/[?¿]/.test(text)) return true;
  const words = text.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  if (words.length >= SENTENCE_WORDS) return true;
  if (words.length < 2) return false;
  const [first = '', second = ''] = words;
  if (QUESTION_OPENERS.has(first) || QUESTION_OPENERS.has(`${first} ${second}`)) return true;
  return words.some((word) => TURKISH_ANYWHERE.has(word)) || TURKISH_PARTICLES.has(words[words.length - 1] ?? '');
}
