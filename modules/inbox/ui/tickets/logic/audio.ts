import type { Channel } from '../../../shared/types';

/** docs/product/tickets-and-inbox.md#validation: recordings under 10000 bytes are discarded without sending. */
export const MIN_AUDIO_BYTES = 10_000;
/** docs/product/tickets-and-inbox.md#constants-and-limits: recordings are encoded at 128 kbps. */
export const AUDIO_BITRATE_KBPS = 128;
/** docs/product/tickets-and-inbox.md#constants-and-limits: playback rates cycle through these. */
export const PLAYBACK_RATES = [0.5, 1, 1.5, 2] as const;
const PLAYBACK_RATE_KEY = 'audioPlaybackRate';

/** Whether a recording is too small to be worth sending. */
export function isAudioTooSmall(bytes: number): boolean {
  return bytes < MIN_AUDIO_BYTES;
}

/** What a recording is sent as: mp3 for WhatsApp, m4a for other channels (webm where m4a can't be recorded). */
export interface RecordingFormat {
  /** `mp3`: record in the browser's own format, then encode to mp3 with lamejs. */
  encode: 'mp3' | 'native';
  /** The MediaRecorder mime type to ask for, or undefined for the browser's default. */
  recorderMime: string | undefined;
  extension: 'mp3' | 'm4a' | 'webm';
  mime: string;
}

/** True for the WhatsApp channels (Baileys and the Cloud API). */
export function isWhatsAppChannel(channel: Channel): boolean {
  return channel === 'whatsapp' || channel === 'whatsappapi';
}

/**
 * The format for a channel (docs/product/tickets-and-inbox.md#constants-and-limits). `isSupported` is `MediaRecorder.isTypeSupported`: m4a (audio/mp4)
 * where the browser records it, webm/opus otherwise, never a file named for a format it isn't.
 */
export function recordingFormat(channel: Channel, isSupported: (mime: string) => boolean): RecordingFormat {
  const webm = isSupported('audio/webm;codecs=opus') ? 'audio/webm;codecs=opus' : undefined;
  if (isWhatsAppChannel(channel)) {
    return { encode: 'mp3', recorderMime: webm, extension: 'mp3', mime: 'audio/mpeg' };
  }
  if (isSupported('audio/mp4')) return { encode: 'native', recorderMime: 'audio/mp4', extension: 'm4a', mime: 'audio/mp4' };
  return { encode: 'native', recorderMime: webm, extension: 'webm', mime: 'audio/webm' };
}

/** Samples in [-1, 1] as 16-bit PCM, which the mp3 encoder takes. */
export function floatTo16BitPcm(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let index = 0; index < samples.length; index++) {
    const sample = Math.max(-1, Math.min(1, samples[index] ?? 0));
    pcm[index] = sample < 0 ? Math.round(sample * 0x8000) : Math.round(sample * 0x7fff);
  }
  return pcm;
}

/** The rate after `current` in the cycle 0.5 → 1 → 1.5 → 2 → 0.5. */
export function nextPlaybackRate(current: number): number {
  const index = PLAYBACK_RATES.indexOf(current as (typeof PLAYBACK_RATES)[number]);
  return PLAYBACK_RATES[(index + 1) % PLAYBACK_RATES.length] ?? 1;
}

/** The stored playback rate (1 when none or unknown). */
export function readPlaybackRate(): number {
  try {
    const value = Number(globalThis.localStorage?.getItem(PLAYBACK_RATE_KEY));
    return (PLAYBACK_RATES as readonly number[]).includes(value) ? value : 1;
  } catch {
    return 1;
  }
}

/** Keeps the playback rate on this device. */
export function storePlaybackRate(rate: number): void {
  try {
    globalThis.localStorage?.setItem(PLAYBACK_RATE_KEY, String(rate));
  } catch {
    // private mode: the rate lasts for this page only
  }
}

/** docs/product/tickets-and-inbox.md#constants-and-limits: on iOS ogg audio is swapped for mp3 (Safari can't play ogg/opus). */
export function playableAudioUrl(url: string, isIOS: boolean): string {
  if (!isIOS) return url;
  return url.replace(/\.ogg(?=$|[?#])/i, '.mp3');
}

/** Whether the browser runs on iOS (iPadOS reports itself as a Mac with touch). */
export function isIOSDevice(nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> | undefined = globalThis.navigator): boolean {
  if (!nav) return false;
  return /iPad|iPhone|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1);
}
