import type { WebchatMessage } from '../../shared/webchat';

/** A message as the server sends it (the widget's tests' shared factory). */
export const message = (fields: Partial<WebchatMessage> = {}): WebchatMessage => ({
  id: '1',
  clientId: null,
  author: 'agent',
  authorName: 'Bruno',
  body: 'Olá!',
  mediaType: 'chat',
  mediaUrl: null,
  fileName: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  isEdited: false,
  isDeleted: false,
  reactions: [],
  ack: 1,
  ...fields,
});
