/**
 * A loopback WhatsApp Web multi-device peer for testing and benchmarking Baileys-based code end to end,
 * with no network: see README.md.
 */

export { muteLibsignalConsole } from '../../libsignal-console';
export { decryptMedia, encryptMedia } from './media';
export { trustPeerRoot } from './noise';
export type {
  AccountOptions,
  CompanionReceipt,
  ContactOptions,
  GroupOptions,
  MediaOptions,
  PreparedBatch,
  QuotedRef,
  ReceivedMessage,
  SendOptions,
} from './parties';
export { Companion, PeerAccount, PeerContact, PeerGroup } from './parties';
export type { HistorySyncOptions, PeerClientOptions, PeerConnectionInfo, WhatsAppPeerOptions } from './peer';
export { startWhatsAppPeer, WhatsAppPeer } from './peer';
