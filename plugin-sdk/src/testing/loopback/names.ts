/** The channel the loopback test plugin registers a driver for (`whatsapps.channel` of its connections). */
export const LOOPBACK_CHANNEL = 'loopback';

/** The variable the loopback channel reads its provider stand-in's base URL from, at every send. */
export const LOOPBACK_URL_VARIABLE = 'LOOPBACK_PROVIDER_URL';
