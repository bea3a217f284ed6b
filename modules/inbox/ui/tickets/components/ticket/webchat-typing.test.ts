import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TYPING_IDLE_MS, TYPING_REPEAT_MS, typingNotifier } from './webchat-typing';

/** The agent's typing notices to a webchat visitor: few calls while typing, one "stopped" at the end. */
describe('typingNotifier', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends typing once per repeat period while keys come, and stopped after the idle time', () => {
    const sent: boolean[] = [];
    const notifier = typingNotifier(
      (typing) => sent.push(typing),
      () => Date.now(),
    );
    notifier.keystroke('o');
    notifier.keystroke('ol');
    vi.advanceTimersByTime(1_000);
    notifier.keystroke('olá');
    expect(sent).toEqual([true]);
    vi.advanceTimersByTime(TYPING_REPEAT_MS);
    notifier.keystroke('olá!');
    expect(sent).toEqual([true, true]);
    vi.advanceTimersByTime(TYPING_IDLE_MS);
    expect(sent).toEqual([true, true, false]);
  });

  it('stops at once when the text is cleared or sent, and only when it had said typing', () => {
    const sent: boolean[] = [];
    const notifier = typingNotifier(
      (typing) => sent.push(typing),
      () => Date.now(),
    );
    notifier.stop();
    expect(sent).toEqual([]);
    notifier.keystroke('a');
    notifier.keystroke('   ');
    expect(sent).toEqual([true, false]);
    notifier.keystroke('b');
    notifier.stop();
    vi.advanceTimersByTime(TYPING_IDLE_MS * 2);
    expect(sent).toEqual([true, false, true, false]);
  });
});
