import { persistState, send, type Turn } from './conversation';

/**
 * Sends a file list (docs/product/administration.md "Chatbot": an option of type `file`, a queue's
 * `fileListId`): its message, then each uploaded file with its option's name as the caption, through the
 * inbox's outbound path. The list is read through the `fileLists` service, so the bot works without the
 * files module (nothing is sent) and never reads another company's list (the service answers null).
 */
export async function sendFileList(turn: Turn, fileListId: number | null | undefined): Promise<boolean> {
  if (!fileListId || !turn.ctx.services.has('fileLists')) return false;
  const list = await turn.ctx.services.use('fileLists').content(turn.companyId, fileListId);
  if (!list) return false;
  await send(turn, list.message);
  for (const entry of list.entries) {
    if (!entry.media) continue;
    await persistState(turn);
    await turn.inbox.send({ ticketId: turn.ticket.id, body: entry.name, media: entry.media });
  }
  return true;
}
