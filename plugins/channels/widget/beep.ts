let audio: AudioContext | null = null;

/**
 * A short beep made with WebAudio (no sound file to download). Browsers keep audio silent until
 * the visitor interacted with the page; then it plays, otherwise nothing happens.
 */
export function playBeep(): void {
  try {
    const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Context) return;
    audio ??= new Context();
    if (audio.state === 'suspended') void audio.resume().catch(() => {});
    const start = audio.currentTime;
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.15, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + 0.3);
    const tone = audio.createOscillator();
    tone.frequency.value = 880;
    tone.connect(gain);
    tone.start(start);
    tone.stop(start + 0.3);
  } catch {
    // no audio on this page: the badge and the live region still tell
  }
}
