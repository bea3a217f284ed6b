import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The flow builder's own error codes (translated in ui/locales under errors.*). It also answers the
 * connections' ERR_NO_INTEGRATION_FOUND and ERR_NO_FLOW_FOUND, and the core's ERR_NO_WAPP_FOUND.
 */
export const flowbuilderErrors = defineErrors({
  ERR_NO_FLOW_CAMPAIGN_FOUND: 404,
  ERR_INTEGRATION_NAME_REQUIRED: 400,
  ERR_INTEGRATION_LANGUAGE_REQUIRED: 400,
  ERR_INTEGRATION_URL_REQUIRED: 400,
  ERR_INTEGRATION_CREDENTIALS_INVALID: 400,
  ERR_INTEGRATION_FLOW_REQUIRED: 400,
  ERR_INTEGRATION_UNREACHABLE: 502,
  ERR_FLOW_CAMPAIGN_FIELDS_REQUIRED: 400,
  ERR_FLOW_NAME_INVALID: 400,
  ERR_FLOW_INVALID: 400,
  ERR_FLOW_MEDIA_TYPE: 400,
  ERR_FLOW_MEDIA_TOO_LARGE: 400,
});
