/**
 * libsignal (under Baileys and the peer alike) writes every session change to the console with
 * `console.info` / `console.warn` — including key material — which floods test and benchmark output. This
 * filters those lines (and only those) out of the process's console. Opt-in: call it in a test process.
 */
const LIBSIGNAL_LINES = [
  'Closing session',
  'Opening session',
  'Removing old closed session',
  'Closing open session in favor of incoming prekey bundle',
  'Session already closed',
  'Session already open',
  'Decrypted message with closed session',
  'Migrating session to',
];

let muted = false;

export function muteLibsignalConsole(): void {
  if (muted) return;
  muted = true;
  for (const method of ['info', 'warn', 'log'] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const first = args[0];
      if (typeof first === 'string' && LIBSIGNAL_LINES.some((line) => first.startsWith(line))) return;
      original(...args);
    };
  }
}
