import { randomBytes } from 'node:crypto';
import { initAuthCreds, proto } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { decodeSessionValue, decodeSignalKey, encodeSessionValue } from './codec';

describe('session values as jsonb text', () => {
  it('round-trips Buffers and Uint8Arrays as Buffers, through the BufferJSON form', () => {
    const value = { buffer: randomBytes(16), bytes: new Uint8Array([1, 2, 3]), nested: [{ mac: randomBytes(4) }] };
    const text = encodeSessionValue(value);
    expect(JSON.parse(text).buffer).toEqual({ type: 'Buffer', data: value.buffer.toString('base64') });
    const back = decodeSessionValue<typeof value>(text);
    expect(Buffer.isBuffer(back.buffer) && back.buffer.equals(value.buffer)).toBe(true);
    expect(back.bytes).toEqual(Buffer.from([1, 2, 3]));
    expect(back.nested[0]?.mac.equals(value.nested[0]?.mac as Buffer)).toBe(true);
  });

  it('escapes strings Postgres jsonb refuses (NUL, lone surrogates) and keeps every other string as is', () => {
    const odd = { nul: 'a\u0000b', lone: 'x\ud800y', emoji: 'olá 😀', plain: 'BalcaoEscapedString' };
    const text = encodeSessionValue(odd);
    expect(text).not.toContain('\\u0000');
    expect(text).not.toMatch(/\\ud800/i);
    expect(JSON.parse(text).emoji).toBe('olá 😀');
    expect(decodeSessionValue(text)).toEqual(odd);
    // a top-level string (a lid-mapping) too
    expect(decodeSessionValue(encodeSessionValue('1\u0000@lid'))).toBe('1\u0000@lid');
  });

  it('round-trips creds made by initAuthCreds', () => {
    const creds = initAuthCreds();
    const back = decodeSessionValue<typeof creds>(encodeSessionValue(creds));
    expect(back).toEqual(creds);
    expect(Buffer.isBuffer(back.noiseKey.private)).toBe(true);
  });

  it('revives app-state sync keys as the protobuf message Baileys expects', () => {
    const key = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: randomBytes(32),
      fingerprint: { rawId: 7, currentIndex: 2, deviceIndexes: [0, 3] },
      timestamp: 1_700_000_000_000,
    });
    const back = decodeSignalKey('app-state-sync-key', encodeSessionValue(key));
    expect(back).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(proto.Message.AppStateSyncKeyData.encode(back).finish())).toEqual(
      Buffer.from(proto.Message.AppStateSyncKeyData.encode(key).finish()),
    );
  });
});
