import { access, defineRoutes, Id, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { callerOf, errorResponses } from '../http';
import * as settings from '../settings.service';

/** A setting's key in a path or query (which keys exist is the service's to say: 404 ERR_NO_SETTING_FOUND). */
const SettingKey = Type.String({ minLength: 1, maxLength: 100 });
/** A setting's value (each key's own rule is checked by the service). */
const SettingValue = Type.String({ maxLength: 5_000 });
const SettingPairSchema = Type.Object({ key: Type.String(), value: Type.String() });
const SettingsByKey = Type.Record(Type.String(), Type.String());

/** A key the walkers can read and write (the route's key is free text, any real key will do). */
const WALKED_KEY = { settingKey: '=userRating' };

/**
 * Settings (docs/product/administration.md#calls-and-realtime-events Settings; docs/product/tickets-and-inbox.md#calls-and-realtime-events). Reads are open to the company's users (the session
 * carries the same values: the inbox's screens read them); writes are for admins. `GET /public-settings/:key`
 * is the core's; the whitelabel's writes are the platform area's.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/settings',
    {
      schema: {
        summary: "List the company's settings",
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Array(SettingPairSchema) },
      },
      config: access.admin,
    },
    async (request) => settings.listSettings(ctx, callerOf(request).companyId),
  );

  app.put(
    '/settings/:settingKey',
    {
      schema: {
        summary: 'Set a company setting',
        errors: { 400: ['ERR_SETTING_MESSAGE_REQUIRED'], 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_SETTING_FOUND'] },
        params: StrictObject({ settingKey: SettingKey }),
        querystring: NoQuery,
        body: StrictObject({ value: SettingValue }),
        response: { 200: SettingPairSchema, ...errorResponses(400, 403, 404) },
      },
      config: { ...access.admin, fixtureParams: WALKED_KEY },
    },
    async (request) => settings.writeSetting(ctx, callerOf(request), request.params.settingKey, request.body.value),
  );

  app.get(
    '/setting/:settingKey',
    {
      schema: {
        summary: 'Get one company setting',
        errors: { 404: ['ERR_NO_SETTING_FOUND'] },
        params: StrictObject({ settingKey: SettingKey }),
        querystring: NoQuery,
        response: { 200: SettingPairSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: WALKED_KEY },
    },
    async (request) => settings.readSetting(ctx, callerOf(request).companyId, request.params.settingKey),
  );

  app.get(
    '/companySettings/:companyId',
    {
      schema: {
        summary: "Get a company's settings as one object",
        errors: { 404: ['ERR_NO_COMPANY_FOUND'] },
        params: StrictObject({ companyId: Id }),
        querystring: NoQuery,
        response: { 200: SettingsByKey, ...errorResponses(404) },
      },
      config: access.authenticated,
    },
    async (request) => settings.settingsOfCompany(ctx, callerOf(request), request.params.companyId),
  );

  app.get(
    '/companySettingOne',
    {
      schema: {
        summary: 'Get one company setting by column',
        errors: { 404: ['ERR_NO_SETTING_FOUND'] },
        querystring: StrictObject({ column: SettingKey }),
        response: { 200: SettingPairSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureQuery: { column: 'userRating' } },
    },
    async (request) => settings.readSetting(ctx, callerOf(request).companyId, request.query.column),
  );

  app.put(
    '/companySettings',
    {
      schema: {
        summary: 'Set a company setting (by key or column)',
        errors: { 400: ['ERR_SETTING_MESSAGE_REQUIRED'], 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_SETTING_FOUND'] },
        querystring: NoQuery,
        // the two documented forms: key and value, or column and data
        body: Type.Union([
          StrictObject({ key: SettingKey, value: SettingValue }),
          StrictObject({ column: SettingKey, data: SettingValue }),
        ]),
        response: { 200: SettingPairSchema, ...errorResponses(400, 403, 404) },
      },
      config: { ...access.admin, fixtureBody: { key: 'userRating', value: 'enabled' } },
    },
    async (request) => {
      const body = request.body;
      const [key, value] = 'key' in body ? [body.key, body.value] : [body.column, body.data];
      return settings.writeSetting(ctx, callerOf(request), key, value);
    },
  );
});
