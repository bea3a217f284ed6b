import { access, defineRoutes, Id, NoBody, NoQuery, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { AnnouncementBody, AnnouncementSchema, Empty, errorResponses, Paged, PLATFORM_COMPANY_ID, SearchParam } from '../schemas';
import * as announcements from '../services/announcements.service';
import { readUpload, storeImage } from '../services/images';

const AnnouncementParams = StrictObject({ announcementId: Id });

/**
 * Announcements (docs/product/automation.md#screens-and-routes, #states-and-transitions, #calls-and-realtime-events): the super user writes them, every user reads the active ones
 * (the top bar's popover), and each change reaches every company live over `company-announcement`.
 * They belong to the platform, not to a tenant.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/announcements',
    {
      schema: {
        summary: 'List announcements (search, paged)',
        errors: {},
        querystring: StrictObject({ searchParam: Type.Optional(SearchParam), pageNumber: Type.Optional(PageNumber) }),
        response: { 200: Paged(AnnouncementSchema) },
      },
      config: access.authenticated,
    },
    async (request) => announcements.pageAnnouncements(ctx, request.query, !request.session?.super),
  );

  app.get(
    '/announcements/list',
    {
      schema: {
        summary: 'List the announcements shown to users',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Array(AnnouncementSchema) },
      },
      config: access.authenticated,
    },
    async () => announcements.activeAnnouncements(ctx),
  );

  app.get(
    '/announcements/:announcementId',
    {
      schema: {
        summary: 'Get an announcement',
        errors: { 404: ['ERR_NO_ANNOUNCEMENT_FOUND'] },
        params: AnnouncementParams,
        querystring: NoQuery,
        response: { 200: AnnouncementSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { announcementId: 'shared:announcement' } },
    },
    async (request) => announcements.getAnnouncement(ctx, request.params.announcementId, !request.session?.super),
  );

  app.post(
    '/announcements',
    {
      schema: {
        summary: 'Create an announcement',
        errors: {},
        body: AnnouncementBody,
        response: { 201: AnnouncementSchema, ...errorResponses(400) },
      },
      config: access.super,
    },
    async (request, reply) => reply.status(201).send(await announcements.createAnnouncement(ctx, request.body)),
  );

  app.put(
    '/announcements/:announcementId',
    {
      schema: {
        summary: 'Update an announcement',
        errors: { 404: ['ERR_NO_ANNOUNCEMENT_FOUND'] },
        params: AnnouncementParams,
        body: AnnouncementBody,
        response: { 200: AnnouncementSchema, ...errorResponses(400, 404) },
      },
      config: access.super,
    },
    async (request) => announcements.updateAnnouncement(ctx, request.params.announcementId, request.body),
  );

  app.delete(
    '/announcements/:announcementId',
    {
      schema: {
        summary: 'Delete an announcement',
        errors: { 404: ['ERR_NO_ANNOUNCEMENT_FOUND'] },
        params: AnnouncementParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: access.super,
    },
    async (request, reply) => {
      await announcements.deleteAnnouncement(ctx, request.params.announcementId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/announcements/:announcementId/media-upload',
    {
      schema: {
        summary: 'Attach a file to an announcement',
        errors: { 404: ['ERR_NO_ANNOUNCEMENT_FOUND'] },
        multipart: Type.Object({
          file: Type.String({ format: 'binary', description: 'The image' }),
          typeArch: Type.Optional(Type.String()),
        }),
        params: AnnouncementParams,
        // multipart (`typeArch`, `file`): read below; a JSON body is refused
        body: NoBody,
        response: { 200: AnnouncementSchema, ...errorResponses(400, 404, 413, 415) },
      },
      config: access.super,
    },
    async (request) => {
      const { announcementId } = request.params;
      await announcements.getAnnouncement(ctx, announcementId);
      const image = await readUpload(request, ['typeArch'], announcements.ANNOUNCEMENT_IMAGE_MAX_BYTES, (_fields, upload) =>
        storeImage(
          ctx,
          PLATFORM_COMPANY_ID,
          'announcements',
          upload,
          announcements.ANNOUNCEMENT_IMAGE_TYPES,
          announcements.ANNOUNCEMENT_IMAGE_MAX_BYTES,
        ),
      );
      return announcements.attachImage(ctx, announcementId, image);
    },
  );

  app.delete(
    '/announcements/:announcementId/media-upload',
    {
      schema: {
        summary: "Remove an announcement's file",
        errors: { 404: ['ERR_NO_ANNOUNCEMENT_FOUND'] },
        params: AnnouncementParams,
        querystring: NoQuery,
        response: { 200: AnnouncementSchema, ...errorResponses(404) },
      },
      config: access.super,
    },
    async (request) => announcements.detachImage(ctx, request.params.announcementId),
  );
});
