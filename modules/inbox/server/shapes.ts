import type { Static, TSchema } from '@balcao/plugin-sdk/server';
import type {
  Contact,
  ContactSummary,
  Message,
  QuickMessage,
  Tag,
  Ticket,
  TicketLog,
  TicketNote,
  UserListItem,
} from '../shared/types';
import type {
  ContactSchema,
  ContactSummarySchema,
  QuickMessageSchema,
  TagSchema,
  TicketNoteSchema,
  UserListItemSchema,
} from './directory/schemas';
import type { MessageSchema } from './messages/schemas';
import type { TicketLogSchema, TicketSchema } from './tickets/schemas';

/**
 * The inbox's JSON shapes are written twice on purpose: as TypeScript interfaces in `shared/types.ts`, which
 * the browser imports without a schema library, and as TypeBox response schemas, which Fastify serializes
 * through and the API document names. These checks make the two one rule: the type-check fails when a schema
 * and its interface list different fields, or when a value of the interface wouldn't satisfy the schema (a
 * field the serializer would drop or refuse). The hot reads' SQL renderer is held to the same shapes by
 * `json-render.test.ts`.
 */
type Agrees<Schema extends TSchema, Shape> = [keyof Static<Schema>] extends [keyof Shape]
  ? [keyof Shape] extends [keyof Static<Schema>]
    ? [Shape] extends [Static<Schema>]
      ? true
      : false
    : false
  : false;
type Holds<Check extends true> = Check;

export type InboxShapesAgree = [
  Holds<Agrees<typeof TicketSchema, Ticket>>,
  Holds<Agrees<typeof TicketLogSchema, TicketLog>>,
  Holds<Agrees<typeof MessageSchema, Message>>,
  Holds<Agrees<typeof ContactSchema, Contact>>,
  Holds<Agrees<typeof ContactSummarySchema, ContactSummary>>,
  Holds<Agrees<typeof TagSchema, Tag>>,
  Holds<Agrees<typeof TicketNoteSchema, TicketNote>>,
  Holds<Agrees<typeof QuickMessageSchema, QuickMessage>>,
  Holds<Agrees<typeof UserListItemSchema, UserListItem>>,
];
