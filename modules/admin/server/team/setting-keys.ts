/**
 * The company settings of docs/product/administration.md#entities Setting, with the values each accepts (#states-and-transitions, #constants-and-limits) and who may
 * change it (docs/product/roles-and-permissions.md#roles-in-administration). Shared by the server (which validates) and the Settings page (which offers the choices).
 */

export const TOGGLE = ['enabled', 'disabled'] as const;

/** What a setting's value may be: one of a list of choices, or free text up to a length. */
export type SettingRule = { kind: 'choice'; choices: readonly string[] } | { kind: 'text'; maxLength: number; url?: boolean };

export interface SettingDefinition {
  rule: SettingRule;
  /** Only the super user changes it (docs/product/roles-and-permissions.md#roles-in-administration: download limit and user-creation options). */
  superOnly?: boolean;
  /** Set by the platform area's super-only whitelabel routes; listed, never written here. */
  readOnly?: boolean;
}

const toggle: SettingRule = { kind: 'choice', choices: TOGGLE };
const message: SettingRule = { kind: 'text', maxLength: 5_000 };

/** docs/product/administration.md#constants-and-limits: download limit choices, in MB. */
export const DOWNLOAD_LIMITS = ['32', '64', '128', '256', '512', '1024', '2048'] as const;
/** docs/product/administration.md#states-and-transitions: schedule type values. */
export const SCHEDULE_TYPES = ['disabled', 'queue', 'company', 'connection'] as const;
/** The chatbot's menu presentation (text, buttons or a list), as the original client offered it. */
export const CHATBOT_TYPES = ['text', 'button', 'list'] as const;

export const SETTINGS: Readonly<Record<string, SettingDefinition>> = {
  userCreation: { rule: toggle, superOnly: true },
  downloadLimit: { rule: { kind: 'choice', choices: DOWNLOAD_LIMITS }, superOnly: true },
  userRating: { rule: toggle },
  scheduleType: { rule: { kind: 'choice', choices: SCHEDULE_TYPES } },
  chatBotType: { rule: { kind: 'choice', choices: CHATBOT_TYPES } },
  acceptCallWhatsapp: { rule: toggle },
  userRandom: { rule: toggle },
  sendGreetingMessageOneQueues: { rule: toggle },
  sendSignMessage: { rule: toggle },
  sendFarewellWaitingTicket: { rule: toggle },
  sendGreetingAccepted: { rule: toggle },
  sendQueuePosition: { rule: toggle },
  acceptAudioMessageContact: { rule: toggle },
  enableLGPD: { rule: toggle },
  requiredTag: { rule: toggle },
  lgpdDeleteMessage: { rule: toggle },
  lgpdHideNumber: { rule: toggle },
  lgpdConsent: { rule: toggle },
  lgpdMessage: { rule: message },
  lgpdLink: { rule: { kind: 'text', maxLength: 2_000, url: true } },
  sendMsgTransfTicket: { rule: toggle },
  DirectTicketsToWallets: { rule: toggle },
  closeTicketOnTransfer: { rule: toggle },
  transferMessage: { rule: message },
  greetingAcceptedMessage: { rule: message },
  AcceptCallWhatsappMessage: { rule: message },
  sendQueuePositionMessage: { rule: message },
  /** Ours: what the chatbot says when it hands a conversation over to people (empty: the product's text). */
  chatbotWaitingMessage: { rule: message },
  showNotificationPending: { rule: toggle },
  primaryColorLight: { rule: { kind: 'text', maxLength: 9 }, readOnly: true },
  primaryColorDark: { rule: { kind: 'text', maxLength: 9 }, readOnly: true },
  appName: { rule: { kind: 'text', maxLength: 100 }, readOnly: true },
  appLogoLight: { rule: { kind: 'text', maxLength: 255 }, readOnly: true },
  appLogoDark: { rule: { kind: 'text', maxLength: 255 }, readOnly: true },
  appLogoFavicon: { rule: { kind: 'text', maxLength: 255 }, readOnly: true },
};

/** Every key the settings routes know. */
export const SETTING_KEYS = Object.keys(SETTINGS);

/**
 * docs/product/administration.md#validation: a custom message is required while its feature is on. Each entry: the message
 * key, the switch, and the switch value that requires the message (the call message is needed when
 * calls are refused, that is when acceptCallWhatsapp is disabled).
 */
export const REQUIRED_MESSAGES: ReadonlyArray<{ message: string; toggle: string; when: string }> = [
  { message: 'transferMessage', toggle: 'sendMsgTransfTicket', when: 'enabled' },
  { message: 'greetingAcceptedMessage', toggle: 'sendGreetingAccepted', when: 'enabled' },
  { message: 'sendQueuePositionMessage', toggle: 'sendQueuePosition', when: 'enabled' },
  { message: 'AcceptCallWhatsappMessage', toggle: 'acceptCallWhatsapp', when: 'disabled' },
];

/**
 * Why setting `key` to `value` breaks a required-message rule, given the company's other settings: the
 * message key that must be filled first, or null when the change is fine.
 */
export function missingRequiredMessage(settings: Record<string, string>, key: string, value: string): string | null {
  const next = { ...settings, [key]: value };
  for (const rule of REQUIRED_MESSAGES) {
    if (rule.toggle !== key && rule.message !== key) continue;
    if (next[rule.toggle] === rule.when && (next[rule.message] ?? '').trim() === '') return rule.message;
  }
  return null;
}

/** Why `value` isn't valid for setting `key`, or null. */
export function settingValueProblem(key: string, value: string): string | null {
  const definition = SETTINGS[key];
  if (!definition) return 'is not a setting';
  const { rule } = definition;
  if (rule.kind === 'choice') return rule.choices.includes(value) ? null : `must be one of ${rule.choices.join(', ')}`;
  if (value.length > rule.maxLength) return `must NOT have more than ${rule.maxLength} characters`;
  if (rule.url && value.trim() !== '' && !/^https?:\/\/\S+$/i.test(value.trim())) return 'must be an http(s) address';
  return null;
}
