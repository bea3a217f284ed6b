/**
 * Every company setting key of docs/product/administration.md#entities with the value a new company starts with. Choices the
 * docs/product leaves open are written down in docs/decisions.md.
 */
export const DEFAULT_COMPANY_SETTINGS: Readonly<Record<string, string>> = {
  userCreation: 'enabled',
  downloadLimit: '64',
  userRating: 'disabled',
  scheduleType: 'disabled',
  chatBotType: 'text',
  acceptCallWhatsapp: 'enabled',
  userRandom: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  sendSignMessage: 'enabled',
  sendFarewellWaitingTicket: 'disabled',
  sendGreetingAccepted: 'disabled',
  sendQueuePosition: 'disabled',
  acceptAudioMessageContact: 'enabled',
  enableLGPD: 'disabled',
  requiredTag: 'disabled',
  lgpdDeleteMessage: 'disabled',
  lgpdHideNumber: 'disabled',
  lgpdConsent: 'disabled',
  lgpdMessage: '',
  lgpdLink: '',
  sendMsgTransfTicket: 'disabled',
  DirectTicketsToWallets: 'disabled',
  closeTicketOnTransfer: 'disabled',
  transferMessage: '',
  greetingAcceptedMessage: '',
  AcceptCallWhatsappMessage: '',
  sendQueuePositionMessage: '',
  showNotificationPending: 'disabled',
};

/**
 * Platform-wide settings, kept on company 1 and readable without a session through
 * `GET /public-settings/:key` (whitelabel of the login page, signup switch).
 */
export const PUBLIC_SETTING_DEFAULTS: Readonly<Record<string, string>> = {
  allowSignup: 'disabled',
  appName: '',
  primaryColorLight: '#0000FF',
  primaryColorDark: '#39ACE7',
  appLogoLight: '',
  appLogoDark: '',
  appLogoFavicon: '',
};

/** The keys `GET /public-settings/:key` answers; anything else is private to the company. */
export const PUBLIC_SETTING_KEYS = Object.keys(PUBLIC_SETTING_DEFAULTS);
