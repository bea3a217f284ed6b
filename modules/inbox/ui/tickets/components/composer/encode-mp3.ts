import { AUDIO_BITRATE_KBPS, floatTo16BitPcm } from '../../logic/audio';

/** Samples per mp3 frame: the encoder takes input in blocks of this size. */
const MP3_BLOCK = 1152;

/**
 * Re-encodes a recording (webm/opus, mp4…) as a mono mp3 at 128 kbps (docs/product/tickets-and-inbox.md#constants-and-limits, WhatsApp). lamejs is
 * fetched on first use, so the composer stays light until someone records for WhatsApp.
 */
export async function encodeMp3(recording: Blob): Promise<Blob> {
  const [{ Mp3Encoder }, buffer] = await Promise.all([import('@breezystack/lamejs'), recording.arrayBuffer()]);
  const context = new AudioContext();
  try {
    const audio = await context.decodeAudioData(buffer);
    const pcm = floatTo16BitPcm(audio.getChannelData(0));
    const encoder = new Mp3Encoder(1, audio.sampleRate, AUDIO_BITRATE_KBPS);
    const parts: ArrayBuffer[] = [];
    const keep = (chunk: Uint8Array) => {
      if (chunk.length > 0) parts.push(chunk.slice().buffer as ArrayBuffer);
    };
    for (let start = 0; start < pcm.length; start += MP3_BLOCK)
      keep(encoder.encodeBuffer(pcm.subarray(start, start + MP3_BLOCK)));
    keep(encoder.flush());
    return new Blob(parts, { type: 'audio/mpeg' });
  } finally {
    void context.close();
  }
}
