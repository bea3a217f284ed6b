import { defineErrors } from '@balcao/plugin-sdk/server';

/** The file lists' own error codes (docs/api.md); they also answer the SDK's ERR_PAYLOAD_TOO_LARGE. */
export const filesErrors = defineErrors({
  ERR_NO_FILE_LIST_FOUND: 404,
  ERR_NO_FILE_OPTION_FOUND: 404,
  ERR_FILE_LIST_NAME_SHORT: 400,
  ERR_FILE_LIST_MESSAGE_REQUIRED: 400,
  ERR_FILE_LIST_MEDIA_TYPE: 415,
});
