import { useCallback, useState } from 'react';
import type { AddableChannel } from './AddConnectionMenu';

/** The editor's state on a connections screen: closed, adding a channel, or editing a connection. */
export interface EditorState {
  open: boolean;
  connectionId: number | null;
  channel: string;
}

/** Opening and closing the editor and the QR dialog of one connections screen. */
export function useConnectionDialogs() {
  const [editor, setEditor] = useState<EditorState>({ open: false, connectionId: null, channel: 'webchat' });
  const [qrFor, setQrFor] = useState<number | null>(null);
  return {
    editor,
    add: useCallback((channel: AddableChannel) => setEditor({ open: true, connectionId: null, channel }), []),
    edit: useCallback((connectionId: number, channel: string) => setEditor({ open: true, connectionId, channel }), []),
    closeEditor: useCallback(() => setEditor((current) => ({ ...current, open: false })), []),
    qrFor,
    showQr: useCallback((id: number) => setQrFor(id), []),
    closeQr: useCallback(() => setQrFor(null), []),
  };
}
