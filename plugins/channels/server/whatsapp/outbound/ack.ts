import type { MessageAck } from '@balcao/plugin-sdk/server';
import { proto } from '@whiskeysockets/baileys';

/**
 * Baileys' message status (`proto.WebMessageInfo.Status`, in `messages.update` and on a sent message) → the
 * product's ack (docs/product/tickets-and-inbox.md#states-and-transitions: 0 pending (clock), 1 sent, 2 delivered, 3 and 4 read (played for audio), 5 read).
 *
 * | Baileys          | ack | why |
 * |------------------|-----|-----|
 * | ERROR 0          | —   | not a step of delivery but its failure: null, so the session reports a failed delivery instead (an ack only moves forward, 0 would change nothing) |
 * | PENDING 1        | 0   | built and handed to the socket, not yet taken by WhatsApp's server: the clock |
 * | SERVER_ACK 2     | 1   | WhatsApp's server has it: one check |
 * | DELIVERY_ACK 3   | 2   | it reached the contact's phone: two grey checks |
 * | READ 4           | 3   | the contact opened it: two blue checks |
 * | PLAYED 5         | 4   | the contact played the voice note or video ("played", still two blue checks) |
 *
 * The product's 5 ("read") has no WhatsApp status above PLAYED to come from and is never produced; unknown
 * values answer null (ignored), so a future status can't move an ack backwards or past read.
 */
export function toProductAck(status: proto.WebMessageInfo.Status | number | null | undefined): MessageAck | null {
  const Status = proto.WebMessageInfo.Status;
  switch (status) {
    case Status.PENDING:
      return 0;
    case Status.SERVER_ACK:
      return 1;
    case Status.DELIVERY_ACK:
      return 2;
    case Status.READ:
      return 3;
    case Status.PLAYED:
      return 4;
    default:
      return null;
  }
}
