/**
 * The notification volume preference (docs/product/tickets-and-inbox.md#validation: 0 to 1, step 0.1), stored on this device. The top bar
 * sets it; features that play a sound (new-ticket notifications, chat) read it.
 */
const VOLUME_KEY = 'volume';

/** The stored volume, 1 when none (or an unreadable value) is stored. */
export function readVolume(): number {
  try {
    const raw = globalThis.localStorage?.getItem(VOLUME_KEY);
    const value = raw === null || raw === undefined ? Number.NaN : Number(raw);
    return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
  } catch {
    return 1;
  }
}

/** Stores the volume, clamped to 0–1 and rounded to the slider's step. */
export function storeVolume(value: number): number {
  const volume = Math.round(Math.min(1, Math.max(0, value)) * 10) / 10;
  try {
    globalThis.localStorage?.setItem(VOLUME_KEY, String(volume));
  } catch {
    // the slider still shows the value for this page
  }
  return volume;
}
