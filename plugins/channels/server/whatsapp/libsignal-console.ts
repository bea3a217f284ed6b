/**
 * libsignal (under Baileys, and under the test peer) writes every Signal session change to the console with
 * `console.info` / `console.warn`, key material included: in production that puts session keys into the
 * server's logs. The WhatsApp session module calls this when it loads (the first session of a process), and
 * the test peer when it starts; it drops those lines, and only those, from the process's console.
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
