import { AppError, access, defineRoutes, NoBody, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { errorResponses, PLATFORM_COMPANY_ID } from '../schemas';
import { readUpload, storeImage } from '../services/images';
import {
  LOGO_FOLDER,
  LOGO_MAX_BYTES,
  LOGO_MODES,
  LOGO_NAME_PATTERN,
  LOGO_TYPES,
  type LogoMode,
  readLogo,
  readWhitelabel,
  setWhitelabel,
  useUploadedLogo,
  WHITELABEL_KEYS,
} from '../services/whitelabel.service';

const WhitelabelSchema = Type.Object(Object.fromEntries(WHITELABEL_KEYS.map((key) => [key, Type.String()])));
const KeyParams = StrictObject({ key: Type.Union(WHITELABEL_KEYS.map((key) => Type.Literal(key))) });

/**
 * Whitelabel (super user only, docs/product/roles-and-permissions.md#roles-in-administration; docs/product/administration.md#calls-and-realtime-events Whitelabel): the platform's
 * colours, name and logos, kept as settings of the platform company so that `GET /public-settings/:key`
 * serves them to the login page. The logos themselves are public: the login page shows them.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/settings-whitelabel',
    {
      schema: {
        summary: "Get the platform's whitelabel settings",
        errors: {},
        querystring: NoQuery,
        response: { 200: WhitelabelSchema },
      },
      config: access.super,
    },
    async () => readWhitelabel(ctx),
  );

  app.put(
    '/settings-whitelabel/:key',
    {
      schema: {
        summary: 'Set a whitelabel setting',
        errors: { 404: ['ERR_NO_LOGO_FOUND'] },
        params: KeyParams,
        body: StrictObject({ value: Type.String({ maxLength: 100 }) }),
        response: { 200: WhitelabelSchema, ...errorResponses(400, 404) },
      },
      config: { ...access.super, fixtureParams: { key: '=appName' }, fixtureBody: { value: 'Balcão' } },
    },
    async (request) => setWhitelabel(ctx, request.params.key, request.body.value),
  );

  app.post(
    '/settings-whitelabel/logo',
    {
      schema: {
        summary: 'Upload a logo',
        errors: {},
        multipart: Type.Object({
          file: Type.String({ format: 'binary', description: 'The image' }),
          typeArch: Type.String({ enum: ['logo'] }),
          mode: Type.String({ enum: ['Light', 'Dark', 'Favicon'] }),
        }),
        // multipart (`typeArch` = logo, `mode` = Light | Dark | Favicon, `file`): read below
        body: NoBody,
        response: { 200: Type.String(), ...errorResponses(400, 413, 415) },
      },
      config: access.super,
    },
    async (request, reply) => {
      const name = await readUpload(request, ['typeArch', 'mode'], LOGO_MAX_BYTES, async (fields, upload) => {
        const mode = fields.mode as LogoMode;
        const problems = [
          fields.typeArch !== 'logo' && { field: 'body.typeArch', message: 'must be logo' },
          !Object.hasOwn(LOGO_MODES, mode ?? '') && { field: 'body.mode', message: 'must be Light, Dark or Favicon' },
        ].filter(Boolean);
        if (problems.length > 0) {
          upload.stream.resume();
          throw new AppError('ERR_VALIDATION', { details: problems });
        }
        const image = await storeImage(ctx, PLATFORM_COMPANY_ID, LOGO_FOLDER, upload, LOGO_TYPES, LOGO_MAX_BYTES);
        return useUploadedLogo(ctx, mode, image);
      });
      // the stored name as a JSON string (docs/product/administration.md#calls-and-realtime-events: the stored logo's name in `data`)
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(name));
    },
  );

  app.get(
    '/settings-whitelabel/logo/:name',
    {
      schema: {
        summary: 'Download a logo',
        errors: { 404: ['ERR_NO_LOGO_FOUND'] },
        params: StrictObject({ name: Type.String({ pattern: LOGO_NAME_PATTERN, maxLength: 40 }) }),
        querystring: NoQuery,
        response: { 200: Type.Unknown(), ...errorResponses(404) },
      },
      config: access.public,
    },
    async (request, reply) => {
      const { stream, mime } = await readLogo(ctx, request.params.name);
      return (
        reply
          .header('content-type', mime)
          .header('x-content-type-options', 'nosniff')
          // a logo's name changes with its content, so it may be cached for good
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(stream)
      );
    },
  );
});
