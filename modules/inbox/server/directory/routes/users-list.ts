import { AppError, access, defineRoutes, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { listUsers } from '../directory.service';
import { UserListItemSchema } from '../schemas';

/** The list panel's width limits (docs/product/tickets-and-inbox.md#tickets-screen: drag allowed between 404 and 700 px). */
const TicketsManagerWidth = Type.Integer({ minimum: 404, maximum: 700 });

/**
 * GET /users/list (docs/product/tickets-and-inbox.md#calls-and-realtime-events): the company's users for transfer and filters, and the Tickets screen's
 * saved panel width. The rest of /users is the administration module's (modules/admin).
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/users/list',
    {
      schema: {
        summary: "List the company's users for pickers",
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Array(UserListItemSchema) },
      },
      config: access.authenticated,
    },
    async (request) => listUsers(ctx, request.session?.companyId as number),
  );

  app.put(
    '/users/toggleChangeWidht/:userId',
    {
      schema: {
        summary: "Save the user's inbox layout width",
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_USER_FOUND'] },
        params: StrictObject({ userId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        querystring: NoQuery,
        body: StrictObject({ defaultTicketsManagerWidth: TicketsManagerWidth }),
        response: { 200: StrictObject({ defaultTicketsManagerWidth: TicketsManagerWidth }) },
      },
      config: access.authenticated,
    },
    async (request) => {
      const session = request.session as NonNullable<typeof request.session>;
      const { userId } = request.params;
      // a user saves their own width; an admin may set it for a user of their company
      if (userId !== session.userId && session.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION');
      const changed = await ctx.db
        .knex('users')
        .where({ id: userId, companyId: session.companyId })
        .update({ defaultTicketsManagerWidth: request.body.defaultTicketsManagerWidth, updatedAt: new Date() });
      if (changed === 0) throw new AppError('ERR_NO_USER_FOUND');
      await ctx.session.invalidateUser(userId);
      return { defaultTicketsManagerWidth: request.body.defaultTicketsManagerWidth };
    },
  );
});
