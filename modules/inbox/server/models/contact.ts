import { TenantModel } from '@balcao/plugin-sdk/server';
import type { Channel } from '../../shared/types';

export class Contact extends TenantModel {
  static override tableName = 'contacts';
  declare id: number;
  declare name: string;
  declare number: string | null;
  declare email: string | null;
  declare active: boolean;
  declare disableBot: boolean;
  declare acceptAudioMessage: boolean;
  declare lgpdAcceptedAt: Date | null;
  declare urlPicture: string | null;
  declare isGroup: boolean;
  declare channel: Channel;
  declare whatsappId: number | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** An identifier a channel knows a contact by (phone JID, LID, page-scoped id, visitor id). */
export class ContactIdentity extends TenantModel {
  static override tableName = 'contactIdentities';
  declare id: number;
  declare contactId: number;
  declare channel: string;
  declare identifier: string;
}

/** A contact's extra field (`extraInfo`). */
export class ContactCustomField extends TenantModel {
  static override tableName = 'contactCustomFields';
  declare id: number;
  declare contactId: number;
  declare name: string;
  declare value: string;
}
