import { defineErrors } from '@balcao/plugin-sdk/server';

/** The insights' own error codes, with their statuses (texts in the UI's locales). */
export const insightsErrors = defineErrors({
  /** The dashboard called with no range at all: "Parametrize o filtro". */
  ERR_DASHBOARD_FILTER_REQUIRED: 400,
  /** A range whose start is after its end, or a day that doesn't exist. */
  ERR_INVALID_DATE_RANGE: 400,
  /** A range longer than two years (731 days). */
  ERR_DATE_RANGE_TOO_LONG: 400,
  /** A list filter that is not a JSON array of ids (or of statuses). */
  ERR_INVALID_FILTER: 400,
  /** A time zone Postgres doesn't know (the campaigns' settings answer it too). */
  ERR_INVALID_TIME_ZONE: 400,
});
