import { AppError, access, defineRoutes, IdParams, NoBody, NoQuery, Type } from '@balcao/plugin-sdk/server';
import * as schedules from '../services/schedules.service';
import { Empty, errorResponses, ScheduleBody, SchedulePage, ScheduleQuery, ScheduleSchema } from '../services/schemas';

/** A valid schedule body for the route walkers: company A's contact, an hour ahead. */
const fixtureBody = (ids: Record<string, number | string>) => ({
  body: 'Lembrete do walker',
  sendAt: new Date(Date.now() + 3_600_000).toISOString(),
  contactId: Number(ids.contact),
  whatsappId: Number(ids.whatsapp),
});

const WRITE_ERRORS = {
  400: [
    'ERR_SCHEDULE_CONTACT_NO_NUMBER',
    'ERR_SCHEDULE_DATE_PAST',
    'ERR_SCHEDULE_INVALID_DATE',
    'ERR_SCHEDULE_NO_CONNECTION',
    'ERR_SCHEDULE_OUTSIDE_WINDOW',
  ],
  404: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_QUEUE_FOUND', 'ERR_NO_USER_FOUND', 'ERR_NO_WAPP_FOUND'],
} as const;

/**
 * Schedules (docs/product/automation.md#schedules, docs/schedules.md): every user of a company whose plan
 * has useSchedules sees and manages the company's schedules, as the calendar shows them all.
 */
export default defineRoutes((app, ctx) => {
  const sessionOf = (request: { session: unknown }) => request.session as { companyId: number; userId: number };

  app.get(
    '/schedules',
    {
      schema: {
        summary: 'List schedules (search, contact, time range; paged)',
        errors: {},
        querystring: ScheduleQuery,
        response: { 200: SchedulePage },
      },
      config: { ...access.authenticated },
    },
    async (request) => schedules.listSchedules(ctx, sessionOf(request).companyId, request.query),
  );

  app.get(
    '/schedules/:id',
    {
      schema: {
        summary: 'Get a schedule',
        errors: { 404: ['ERR_NO_SCHEDULE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ScheduleSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'schedule' } },
    },
    async (request) => schedules.loadSchedule(ctx, sessionOf(request).companyId, request.params.id),
  );

  app.post(
    '/schedules',
    {
      schema: {
        summary: 'Schedule a message to a contact',
        errors: WRITE_ERRORS,
        body: ScheduleBody,
        response: { 200: ScheduleSchema, ...errorResponses(400, 404) },
      },
      config: { ...access.authenticated, fixtureBody },
    },
    async (request) => {
      const session = sessionOf(request);
      return schedules.createSchedule(ctx, session.companyId, session.userId, request.body);
    },
  );

  app.put(
    '/schedules/:id',
    {
      schema: {
        summary: 'Change a schedule (it starts over with the new fields)',
        errors: { ...WRITE_ERRORS, 404: ['ERR_NO_SCHEDULE_FOUND', ...WRITE_ERRORS[404]], 409: ['ERR_SCHEDULE_SENDING'] },
        params: IdParams,
        body: ScheduleBody,
        response: { 200: ScheduleSchema, ...errorResponses(400, 404, 409) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'schedule' }, fixtureBody },
    },
    async (request) => schedules.updateSchedule(ctx, sessionOf(request).companyId, request.params.id, request.body),
  );

  app.delete(
    '/schedules/:id',
    {
      schema: {
        summary: 'Delete a schedule',
        errors: { 404: ['ERR_NO_SCHEDULE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'schedule' } },
    },
    async (request, reply) => {
      await schedules.deleteSchedule(ctx, sessionOf(request).companyId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/schedules/:id/media-upload',
    {
      schema: {
        summary: 'Attach a file to a schedule',
        errors: { 404: ['ERR_NO_SCHEDULE_FOUND'], 415: ['ERR_SCHEDULE_MEDIA_TYPE'] },
        multipart: Type.Object({
          file: Type.String({ format: 'binary', description: 'Image, audio, video, PDF or Office document' }),
        }),
        params: IdParams,
        // multipart (`file`): parsed below; a JSON body is refused
        body: NoBody,
        response: { 200: ScheduleSchema, ...errorResponses(400, 404, 413, 415) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'schedule' } },
    },
    async (request) => {
      const companyId = sessionOf(request).companyId;
      // the schedule first: another company's id is a 404 whatever was sent
      await schedules.loadSchedule(ctx, companyId, request.params.id);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      for await (const part of request.parts({ limits: { fileSize: schedules.SCHEDULE_MEDIA_MAX_BYTES + 1, files: 1 } })) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        const data = await schedules.readAttachment(part.file);
        if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
        return schedules.attachMedia(ctx, companyId, request.params.id, { fileName: part.filename || 'file', data });
      }
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.file', message: 'is required' }] });
    },
  );

  app.delete(
    '/schedules/:id/media-upload',
    {
      schema: {
        summary: "Remove a schedule's file",
        errors: { 404: ['ERR_NO_SCHEDULE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ScheduleSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'schedule' } },
    },
    async (request) => schedules.detachMedia(ctx, sessionOf(request).companyId, request.params.id),
  );
});
