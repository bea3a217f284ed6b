import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The internal chat's own error codes (translated in ui/locales under errors.*). A chat the caller isn't a
 * member of answers ERR_NO_CHAT_FOUND, as one of another company does: non-members learn nothing of it.
 */
export const internalChatErrors = defineErrors({
  ERR_NO_CHAT_FOUND: 404,
  ERR_CHAT_OWNER_ONLY: 403,
  ERR_CHAT_READ_OWN_ONLY: 403,
  ERR_CHAT_MESSAGE_EMPTY: 400,
});
