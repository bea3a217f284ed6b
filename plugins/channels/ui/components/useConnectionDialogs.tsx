import { useCallback, useState } from 'react';
import type { AddableChannel } from './AddConnectionMenu';
import type { LinkMethod } from './QrCodeDialog';

/** The editor's state on a connections screen: closed, adding a channel, or editing a connection. */
export interface EditorState {
  open: boolean;
  connectionId: number | null;
  channel: string;
}

/** Opening and closing the editor and the QR dialog (QR code or phone number) of one connections screen. */
export function useConnectionDialogs() {
  const [editor, setEditor] = useState<EditorState>({ open: false, connectionId: null, channel: 'webchat' });
  const [linking, setLinking] = useState<{ connectionId: number; method: LinkMethod } | null>(null);
  return {
    editor,
    add: useCallback((channel: AddableChannel) => setEditor({ open: true, connectionId: null, channel }), []),
    edit: useCallback((connectionId: number, channel: string) => setEditor({ open: true, connectionId, channel }), []),
    closeEditor: useCallback(() => setEditor((current) => ({ ...current, open: false })), []),
    /** The connection whose QR dialog is open, and the way it opened on. */
    qrFor: linking?.connectionId ?? null,
    linkMethod: linking?.method ?? 'qr',
    showQr: useCallback((id: number) => setLinking({ connectionId: id, method: 'qr' }), []),
    showPairingCode: useCallback((id: number) => setLinking({ connectionId: id, method: 'number' }), []),
    closeQr: useCallback(() => setLinking(null), []),
  };
}
