/** A lane as `GET /tag/kanban` lists it (docs/product/administration.md#entities Tag, kanban 1). */
export interface Lane {
  id: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  timeLane: number | null;
  nextLaneId: number | null;
  greetingMessageLane: string | null;
  rollbackLaneId: number | null;
  ticketTags: number;
}

/** A card (docs/product/administration.md#entities Kanban ticket) and the lane it sits in (null: the default lane). */
export interface KanbanTicket {
  id: number;
  uuid: string;
  status: string;
  channel: string;
  contact: { id: number; name: string; number: string | null; isGroup: boolean };
  lastMessage: string;
  unreadMessages: number;
  updatedAt: string;
  whatsapp: { name: string } | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  tags: Array<{ id: number; name: string; color: string; kanban: 0 | 1 }>;
  laneId: number | null;
}

/** How many cards a lane holds (`laneId` null: the default lane), in a page of the board. */
export interface LaneCount {
  laneId: number | null;
  count: number;
}

/** The board's first load: cards, and the lanes' counts when the server sent a page (null: the whole board). */
export interface BoardAnswer {
  tickets: KanbanTicket[];
  laneCounts: LaneCount[] | null;
}

/** A lane's fields as the inbox's `POST /tags` and `PUT /tags/:id` take them. */
export interface LaneBody {
  name: string;
  color: string;
  kanban: 1;
  timeLane: number | null;
  nextLaneId: number | null;
  greetingMessageLane: string | null;
  rollbackLaneId: number | null;
}

/** An embed key of the widget, as admins see it (the server's answer, one definition for both). */
export type { EmbedKeyJson as EmbedKey } from '../shared/embed-key';

export interface EmbedKeyBody {
  name: string;
  allowedOrigins: string[];
  mayMove: boolean;
  signedUsers: boolean;
  laneIds: number[] | null;
}
