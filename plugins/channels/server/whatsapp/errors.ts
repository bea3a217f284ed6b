import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The WhatsApp channel's codes (beyond the core's ERR_WAPP_NOT_INITIALIZED, ERR_WAPP_INVALID_CONTACT,
 * ERR_SENDING_WAPP_MSG …). The session ones are not HTTP answers: they are why a session stopped by itself,
 * kept on the connection (`sessionError`) and shown on the Connections screen; translated like any code.
 */
export const whatsappErrors = defineErrors({
  /** The phone unlinked this device (or WhatsApp logged it out): a new QR code is needed. */
  ERR_WAPP_LOGGED_OUT: 409,
  /** WhatsApp refuses this number (banned or restricted). */
  ERR_WAPP_BANNED: 409,
  /** Nobody read the QR codes before they ran out. */
  ERR_WAPP_QR_EXPIRED: 409,
  /** Another WhatsApp Web session replaced this one, again and again: reconnecting waits longer. */
  ERR_WAPP_CONFLICT: 409,
  /** The phone number to pair with isn't a number WhatsApp could have (digits, country code first, 8–15). */
  ERR_WAPP_PAIRING_NUMBER_INVALID: 400,
  /** The session isn't waiting for a pairing (it is connected, or stopped). */
  ERR_WAPP_NOT_PAIRING: 409,
});
