import { afterEach, describe, expect, it } from 'vitest';
import {
  floatTo16BitPcm,
  isAudioTooSmall,
  isIOSDevice,
  nextPlaybackRate,
  playableAudioUrl,
  readPlaybackRate,
  recordingFormat,
  storePlaybackRate,
} from './audio';

describe('the audio size rule (docs/product/tickets-and-inbox.md#validation)', () => {
  it('discards recordings under 10000 bytes', () => {
    expect(isAudioTooSmall(0)).toBe(true);
    expect(isAudioTooSmall(9_999)).toBe(true);
    expect(isAudioTooSmall(10_000)).toBe(false);
    expect(isAudioTooSmall(250_000)).toBe(false);
  });
});

describe('the recording format (docs/product/tickets-and-inbox.md#constants-and-limits)', () => {
  const everything = () => true;
  const webmOnly = (mime: string) => mime.startsWith('audio/webm');

  it('is mp3 for WhatsApp, encoded from what the browser records', () => {
    expect(recordingFormat('whatsapp', everything)).toMatchObject({ encode: 'mp3', extension: 'mp3', mime: 'audio/mpeg' });
    expect(recordingFormat('whatsappapi', webmOnly)).toMatchObject({ encode: 'mp3', extension: 'mp3' });
  });

  it('is m4a for other channels where the browser records it, webm otherwise', () => {
    expect(recordingFormat('facebook', everything)).toMatchObject({
      encode: 'native',
      recorderMime: 'audio/mp4',
      extension: 'm4a',
    });
    expect(recordingFormat('instagram', webmOnly)).toMatchObject({ encode: 'native', extension: 'webm', mime: 'audio/webm' });
  });

  it('turns samples into 16-bit PCM, clipping what goes past full scale', () => {
    expect(Array.from(floatTo16BitPcm(new Float32Array([0, 1, -1, 0.5, 2, -2])))).toEqual([
      0, 32767, -32768, 16384, 32767, -32768,
    ]);
  });
});

describe('playback rates (docs/product/tickets-and-inbox.md#constants-and-limits)', () => {
  afterEach(() => globalThis.localStorage.clear());

  it('cycle 0.5, 1, 1.5, 2 and back', () => {
    expect(nextPlaybackRate(0.5)).toBe(1);
    expect(nextPlaybackRate(1)).toBe(1.5);
    expect(nextPlaybackRate(1.5)).toBe(2);
    expect(nextPlaybackRate(2)).toBe(0.5);
  });

  it('are kept on this device, 1 when nothing (or nonsense) is stored', () => {
    expect(readPlaybackRate()).toBe(1);
    storePlaybackRate(1.5);
    expect(readPlaybackRate()).toBe(1.5);
    globalThis.localStorage.setItem('audioPlaybackRate', '7');
    expect(readPlaybackRate()).toBe(1);
  });
});

describe('ogg audio on iOS (docs/product/tickets-and-inbox.md#constants-and-limits)', () => {
  it('is swapped for mp3 on iOS only', () => {
    expect(playableAudioUrl('/media/a.ogg?sig=1', true)).toBe('/media/a.mp3?sig=1');
    expect(playableAudioUrl('/media/a.ogg', false)).toBe('/media/a.ogg');
    expect(playableAudioUrl('/media/token', true)).toBe('/media/token');
  });

  it('recognises iPhones and iPads', () => {
    expect(isIOSDevice({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', maxTouchPoints: 5 })).toBe(true);
    expect(isIOSDevice({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', maxTouchPoints: 5 })).toBe(true);
    expect(isIOSDevice({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', maxTouchPoints: 0 })).toBe(false);
    expect(isIOSDevice({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', maxTouchPoints: 0 })).toBe(false);
  });
});
