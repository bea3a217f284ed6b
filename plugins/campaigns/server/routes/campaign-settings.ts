import { defineRoutes, NoQuery } from '@balcao/plugin-sdk/server';
import { errorResponses, SettingsBody, SettingsList } from '../services/schemas';
import { campaignSettings, saveSettings, settingsList } from '../services/settings.service';
import { MANAGE } from './campaigns';

/** Campaign settings (docs/product/automation.md#calls-and-realtime-events: `GET /campaign-settings` `[{ key, value }]`, `POST` with `settings`). */
export default defineRoutes((app, ctx) => {
  app.get(
    '/campaign-settings',
    {
      schema: { summary: 'Get the campaign settings', errors: {}, querystring: NoQuery, response: { 200: SettingsList } },
      config: { ...MANAGE },
    },
    async (request) => settingsList(await campaignSettings(ctx, (request.session as { companyId: number }).companyId)),
  );

  app.post(
    '/campaign-settings',
    {
      schema: {
        summary: 'Save the campaign settings',
        errors: { 400: ['ERR_INVALID_TIME_ZONE'] },
        body: SettingsBody,
        response: { 200: SettingsList, ...errorResponses(400) },
      },
      config: { ...MANAGE, fixtureBody: { settings: { messageInterval: 20, startHour: '09:00', endHour: '18:00' } } },
    },
    async (request) => {
      const companyId = (request.session as { companyId: number }).companyId;
      await saveSettings(ctx, companyId, request.body.settings);
      return settingsList(await campaignSettings(ctx, companyId));
    },
  );
});
