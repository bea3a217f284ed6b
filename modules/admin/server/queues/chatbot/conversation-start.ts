import type { ConnectionProfile } from '@balcao/plugin-sdk/server';
import { choiceOf, menuText } from './bot-texts';

/**
 * What comes before the bot's menus on a new conversation:
 * the connection's collective vacation and the LGPD consent. The chatbot engine applies them at the start
 * of its turn, so that no greeting ever goes before them (see docs/channels/conversation-start.md).
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** The server's local date as YYYY-MM-DD (vacation days, like service hours, follow the server's clock). */
export function localDate(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** A stored date (`YYYY-MM-DD`, or a timestamp) as YYYY-MM-DD; null when unset. */
function dayOf(value: string | null): string | null {
  if (!value) return null;
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

/**
 * Whether `at` falls in the connection's collective vacation: collectiveVacationStart and
 * collectiveVacationEnd both set, both days included, in the server's local date, and a
 * collectiveVacationMessage to tell (without one the dates are left-overs and the bot works as usual).
 */
export function onCollectiveVacation(profile: ConnectionProfile | null, at: Date): boolean {
  if (!profile || profile.collectiveVacationMessage.trim() === '') return false;
  const start = dayOf(profile.collectiveVacationStart);
  const end = dayOf(profile.collectiveVacationEnd);
  if (!start || !end) return false;
  const today = localDate(at);
  return start <= today && today <= end;
}

/**
 * The product's texts of the consent flow. Messages the product sends to contacts are Portuguese (the
 * product's default language); the company writes its own lgpdMessage in any language.
 */
export const LGPD_TEXTS = {
  /** Used when neither the connection nor the company wrote an lgpdMessage. */
  message:
    'Para seguir com o atendimento, precisamos do seu consentimento para tratar os seus dados pessoais, conforme a Lei Geral de Proteção de Dados (LGPD).',
  accept: 'Aceito',
  refuse: 'Não aceito',
  refused:
    'Tudo bem. Sem o seu consentimento não podemos seguir com o atendimento. Se mudar de ideia, é só nos escrever de novo.',
} as const;

/** How many times the question is asked (the first time and the repeats after other answers). */
export const LGPD_MAX_ASKS = 3;

/**
 * Whether the company asks its contacts for consent: enableLGPD (the company's LGPD features) and
 * lgpdConsent (asking for consent before attending) both enabled.
 */
export function asksLgpdConsent(settings: Record<string, string>): boolean {
  return settings.enableLGPD === 'enabled' && settings.lgpdConsent === 'enabled';
}

/** The question: the connection's lgpdMessage (else the company's, else the product's), the link, and the choice. */
export function lgpdQuestion(settings: Record<string, string>, profile: ConnectionProfile | null): string {
  const message = [profile?.lgpdMessage, settings.lgpdMessage].find((text) => text && text.trim() !== '') ?? LGPD_TEXTS.message;
  const link = (settings.lgpdLink ?? '').trim();
  const intro = [message.trim(), link].filter((part) => part !== '').join('\n\n');
  return menuText(intro, [LGPD_TEXTS.accept, LGPD_TEXTS.refuse]);
}

/** A contact's answer to the question: 1 accepts, 2 refuses, anything else is no answer. */
export function lgpdAnswerOf(body: string): 'accept' | 'refuse' | null {
  const choice = choiceOf(body);
  if (choice === 1) return 'accept';
  if (choice === 2) return 'refuse';
  return null;
}
