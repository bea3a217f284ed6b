import { TenantModel } from '@balcao/plugin-sdk/server';

/** A queue (department). The inbox keeps its basic part: name and colour, and who belongs to it. */
export class Queue extends TenantModel {
  static override tableName = 'queues';
  declare id: number;
  declare name: string;
  declare color: string;
  declare greetingMessage: string | null;
  declare orderQueue: number | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A user's membership of a queue. */
export class UserQueue extends TenantModel {
  static override tableName = 'userQueues';
  static override idColumn = ['userId', 'queueId'];
  declare userId: number;
  declare queueId: number;
}
