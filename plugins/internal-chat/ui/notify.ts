import { readVolume } from '@balcao/plugin-sdk/ui';

/**
 * A short chime through Web Audio at the volume of the top bar's volume control: no sound file to download,
 * silent at volume 0. A lower pair of notes than the inbox's, so agents tell a colleague from a customer.
 */
export function playChatSound(volume: number = readVolume()): void {
  if (volume <= 0) return;
  const AudioContextClass = globalThis.AudioContext;
  if (!AudioContextClass) return;
  try {
    const context = new AudioContextClass();
    const gain = context.createGain();
    gain.gain.value = volume * 0.3;
    gain.connect(context.destination);
    const start = context.currentTime;
    for (const [index, frequency] of [660, 990].entries()) {
      const oscillator = context.createOscillator();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      oscillator.connect(gain);
      oscillator.start(start + index * 0.12);
      oscillator.stop(start + index * 0.12 + 0.1);
    }
    setTimeout(() => void context.close(), 600);
  } catch {
    // a browser that refuses audio before any interaction: the notification alone will do
  }
}

/** Shows a desktop notification when the user allowed them; one per chat, a newer one replacing the older. */
export function showChatNotification(notice: { title: string; body: string; tag: string; onClick(): void }): void {
  if (typeof globalThis.Notification === 'undefined' || Notification.permission !== 'granted') return;
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.tag });
  notification.onclick = () => {
    globalThis.focus?.();
    notice.onClick();
    notification.close();
  };
}
