import { defineErrors } from '@balcao/plugin-sdk/server';

/** The plugin's own error codes, with the status each answers (texts under `errors.<code>` in ui/locales). */
export const __CAMEL__Errors = defineErrors({ ERR___UPPER___NOTE_NOT_FOUND: 404 });
