/**
 * How a WhatsApp session's secrets become JSON text for Postgres `jsonb`, and back.
 *
 * Baileys' own `BufferJSON` (the format of its file store) does the work: Buffers and Uint8Arrays become
 * `{ type: 'Buffer', data: <base64> }`. One addition: Postgres `jsonb` refuses the escapes `\u0000` and lone
 * surrogates, which `JSON.stringify` produces for such strings. A push name (kept in the creds as `me.name`)
 * is typed by a person, so a string holding either is written as `{ type: 'BalcaoEscapedString', data:
 * <base64 of its UTF-16 code units> }` — otherwise one odd name would make every save of the creds fail.
 */
import { BufferJSON, proto, type SignalDataTypeMap } from '@whiskeysockets/baileys';

/** A key type of Baileys' signal key store ('pre-key', 'session', …). */
export type SignalKeyType = keyof SignalDataTypeMap;

/** Every key type of Baileys 7, for validation and tests. */
export const SIGNAL_KEY_TYPES: readonly SignalKeyType[] = [
  'pre-key',
  'session',
  'sender-key',
  'sender-key-memory',
  'app-state-sync-key',
  'app-state-sync-version',
  'lid-mapping',
  'device-list',
  'tctoken',
  'identity-key',
];

const ESCAPED_STRING = 'BalcaoEscapedString';
// a UTF-16 surrogate not part of a pair (with the `u` flag, a pair is one code point, not \p{Cs})
const LONE_SURROGATE = /\p{Cs}/u;
const unstorableInJsonb = (value: string) => value.includes('\u0000') || LONE_SURROGATE.test(value);

interface EscapedString {
  type: typeof ESCAPED_STRING;
  data: string;
}

function isEscapedString(value: unknown): value is EscapedString {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as EscapedString).type === ESCAPED_STRING &&
    typeof (value as EscapedString).data === 'string'
  );
}

function replacer(key: string, value: unknown): unknown {
  if (typeof value === 'string' && unstorableInJsonb(value)) {
    // utf16le keeps lone surrogates (UTF-8 would turn them into U+FFFD)
    return { type: ESCAPED_STRING, data: Buffer.from(value, 'utf16le').toString('base64') } satisfies EscapedString;
  }
  return BufferJSON.replacer(key, value);
}

function reviver(key: string, value: unknown): unknown {
  if (isEscapedString(value)) return Buffer.from(value.data, 'base64').toString('utf16le');
  return BufferJSON.reviver(key, value);
}

/** JSON text of a value of the session (creds or a key), ready for a `jsonb` column. */
export function encodeSessionValue(value: unknown): string {
  return JSON.stringify(value, replacer);
}

/** The value of JSON text written by {@link encodeSessionValue} (Buffers revived). */
export function decodeSessionValue<T>(text: string): T {
  return JSON.parse(text, reviver) as T;
}

/**
 * A key of `type` from its JSON text: as {@link decodeSessionValue}, and app-state sync keys become the
 * protobuf message Baileys expects (as its file store does with `fromObject`).
 */
export function decodeSignalKey<T extends SignalKeyType>(type: T, text: string): SignalDataTypeMap[T] {
  const value = decodeSessionValue<unknown>(text);
  if (type === 'app-state-sync-key') {
    return proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>) as unknown as SignalDataTypeMap[T];
  }
  return value as SignalDataTypeMap[T];
}
