import { readVolume } from '@balcao/plugin-sdk/ui';

/**
 * A short two-tone chime through Web Audio at the user's volume (docs/product/tickets-and-inbox.md#constants-and-limits volume preference): no sound
 * file to download, and silent at volume 0.
 */
export function playNotificationSound(volume: number = readVolume()): void {
  if (volume <= 0) return;
  const AudioContextClass = globalThis.AudioContext;
  if (!AudioContextClass) return;
  try {
    const context = new AudioContextClass();
    const gain = context.createGain();
    gain.gain.value = volume * 0.3;
    gain.connect(context.destination);
    const start = context.currentTime;
    for (const [index, frequency] of [880, 1320].entries()) {
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

/** What a browser notification shows. */
export interface BrowserNotice {
  title: string;
  body: string;
  icon?: string;
  /** One notification per ticket: a newer message replaces the older one. */
  tag: string;
  onClick(): void;
}

/** Shows a browser notification when allowed; browsers without support only log it (docs/product/tickets-and-inbox.md#errors). */
export function showBrowserNotification(notice: BrowserNotice): void {
  if (typeof globalThis.Notification === 'undefined') {
    console.log('This browser does not support desktop notifications');
    return;
  }
  if (Notification.permission !== 'granted') return;
  const notification = new Notification(notice.title, { body: notice.body, icon: notice.icon, tag: notice.tag });
  notification.onclick = () => {
    globalThis.focus?.();
    notice.onClick();
    notification.close();
  };
}

/** Asks once for permission to notify, where the browser supports it and the user hasn't answered. */
export function askNotificationPermission(): void {
  if (typeof globalThis.Notification === 'undefined') {
    console.log('This browser does not support desktop notifications');
    return;
  }
  if (Notification.permission === 'default') void Notification.requestPermission().catch(() => undefined);
}
