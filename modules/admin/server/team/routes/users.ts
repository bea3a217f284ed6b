import { AppError, access, defineRoutes, NoBody, NoQuery, Type } from '@balcao/plugin-sdk/server';
import { storeAvatar } from '../avatar';
import { callerOf, Empty, errorResponses } from '../http';
import { CreateUserBody, UpdateUserBody, UserIdParams, UserListQuery, UserPageSchema, UserSchema } from '../user-schemas';
import * as users from '../users.service';

/** Text fields the documented avatar upload sends beside the file (`userId`, `typeArch: user`); both are implied. */
const AVATAR_FIELDS = new Set(['userId', 'typeArch']);

/**
 * Users (docs/product/administration.md#calls-and-realtime-events Users). `GET /users/list` and `PUT /users/toggleChangeWidht/:userId` are
 * the inbox's. Admins manage the company's users; anyone may read and edit themselves (the Profile item
 * of the avatar menu), without the admin-only fields.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/users',
    {
      schema: {
        summary: 'List users (search, 40 a page)',
        errors: {},
        querystring: UserListQuery,
        response: { 200: UserPageSchema },
      },
      config: access.admin,
    },
    async (request) => users.listUsers(ctx, callerOf(request), request.query),
  );

  app.get(
    '/users/:userId',
    {
      schema: {
        summary: 'Get a user',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_USER_FOUND'] },
        params: UserIdParams,
        querystring: NoQuery,
        response: { 200: UserSchema, ...errorResponses(403, 404) },
      },
      config: access.authenticated,
    },
    async (request) => users.getUser(ctx, callerOf(request), request.params.userId),
  );

  app.post(
    '/users',
    {
      schema: {
        summary: 'Create a user',
        errors: { 403: ['ERR_USER_CREATION_DISABLED', 'ERR_USER_LIMIT_REACHED'], 409: ['ERR_EMAIL_ALREADY_EXISTS'] },
        body: CreateUserBody,
        response: { 201: UserSchema, ...errorResponses(400, 403, 409) },
      },
      config: access.admin,
    },
    async (request, reply) => reply.status(201).send(await users.createUser(ctx, callerOf(request), request.body)),
  );

  app.put(
    '/users/:userId',
    {
      schema: {
        summary: 'Update a user',
        errors: {
          400: ['ERR_LAST_ADMIN'],
          403: ['ERR_NO_PERMISSION'],
          404: ['ERR_NO_USER_FOUND'],
          409: ['ERR_EMAIL_ALREADY_EXISTS'],
        },
        params: UserIdParams,
        body: UpdateUserBody,
        response: { 200: UserSchema, ...errorResponses(400, 403, 404, 409) },
      },
      config: access.authenticated,
    },
    async (request) => users.updateUser(ctx, callerOf(request), request.params.userId, request.body),
  );

  app.delete(
    '/users/:userId',
    {
      schema: {
        summary: 'Delete a user',
        errors: { 400: ['ERR_CANNOT_DELETE_SELF', 'ERR_LAST_ADMIN'], 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_USER_FOUND'] },
        params: UserIdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(400, 403, 404) },
      },
      config: access.admin,
    },
    async (request, reply) => {
      await users.deleteUser(ctx, callerOf(request), request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/:userId/media-upload',
    {
      schema: {
        summary: "Upload a user's profile image",
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_USER_FOUND'] },
        multipart: Type.Object({
          profileImage: Type.String({ format: 'binary', description: 'The image' }),
          userId: Type.Optional(Type.String()),
          typeArch: Type.Optional(Type.String()),
        }),
        params: UserIdParams,
        // multipart (`profileImage` file, `userId`, `typeArch`): parsed below; a JSON body is refused
        body: NoBody,
        response: { 200: UserSchema, ...errorResponses(400, 403, 404, 413, 415) },
      },
      config: access.authenticated,
    },
    async (request) => {
      const caller = callerOf(request);
      const { userId } = request.params;
      await users.requireAvatarTarget(caller, userId);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      let key: string | null = null;
      try {
        for await (const part of request.parts({ limits: { files: 1, fields: 5, fieldSize: 100 } })) {
          if (part.type === 'file') {
            if (part.fieldname !== 'profileImage' || key !== null) {
              part.file.resume();
              throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
            }
            key = await storeAvatar(ctx, caller.companyId, userId, part.file);
          } else if (!AVATAR_FIELDS.has(part.fieldname)) {
            throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
          }
        }
      } catch (error) {
        // a refusal after the file was stored leaves no orphan behind
        if (key !== null) await ctx.storage.delete(caller.companyId, key).catch(() => {});
        throw error;
      }
      if (key === null)
        throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.profileImage', message: 'is required' }] });
      return users.setAvatar(ctx, caller, userId, key);
    },
  );
});
