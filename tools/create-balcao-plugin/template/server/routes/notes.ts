import { AppError, access, defineRoutes, IdParams, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { Note } from '../models/note';

/** A note as the API answers it. */
export const NoteSchema = Type.Object({ id: Type.Integer(), text: Type.String(), reviewed: Type.Boolean() });

/** The notes of the session's company: list and read for everyone, write for who holds `__ID__:write`. */
export default defineRoutes((app, ctx) => {
  app.get(
    '/__ID__/notes',
    {
      schema: {
        querystring: StrictObject({ search: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 200: Type.Object({ notes: Type.Array(NoteSchema) }) },
      },
      config: access.authenticated,
    },
    async (request) => {
      const query = Note.query().orderBy('id');
      if (request.query.search) query.whereILike('text', `%${request.query.search}%`);
      return { notes: await query };
    },
  );

  app.get(
    '/__ID__/notes/:id',
    {
      schema: { params: IdParams, querystring: NoQuery, response: { 200: NoteSchema } },
      config: { ...access.authenticated, fixtureParams: { id: '__CAMEL__Note' } },
    },
    async (request) => {
      const note = await Note.query().findById(request.params.id);
      if (!note) throw new AppError('ERR___UPPER___NOTE_NOT_FOUND');
      return note;
    },
  );

  app.post(
    '/__ID__/notes',
    {
      schema: {
        body: StrictObject({ text: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 201: NoteSchema },
      },
      config: access.permission('__ID__:write'),
    },
    async (request, reply) => {
      const note = await Note.query().insert({ text: request.body.text }).returning('*');
      // the review runs in the background, in this company's scope
      await ctx.jobs.enqueue('review', { noteId: note.id });
      return reply.status(201).send(note);
    },
  );
});
