import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A real SMTP server on loopback that keeps every message it receives. */
function startSmtp(): Promise<{ server: SMTPServer; port: number; inbox: string[] }> {
  const inbox: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        inbox.push(raw);
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.server.address() as AddressInfo).port, inbox }));
  });
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
});

describe('password reset (docs/product/administration.md#states-and-transitions)', () => {
  it('answers 404 ERR_NO_USER_FOUND for an unknown e-mail', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/forgetpassword/nobody@acme.test' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });

  it('mails a code, refuses a wrong one and a weak password, then resets and ends old sessions', async () => {
    const before = await t.login('agent@lite.test');
    const sent = await t.inject({ method: 'POST', url: '/api/forgetpassword/Agent@Lite.test' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ status: 'sent' });
    const mail = await waitFor(() => smtp.inbox.find((raw) => raw.includes('agent@lite.test')));
    const code = /(\d{6})\. Ele vale/.exec(mail.replace(/=\r?\n/g, ''))?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await t.inject({ method: 'POST', url: `/api/resetpasswords/agent@lite.test/${wrongCode}/NewPass123` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });

    const weak = await t.inject({ method: 'POST', url: `/api/resetpasswords/agent@lite.test/${code}/weakpass` });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe('ERR_VALIDATION');

    const done = await t.inject({ method: 'POST', url: `/api/resetpasswords/agent@lite.test/${code}/NewPass123` });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ status: 'reset' });

    const reused = await t.inject({ method: 'POST', url: `/api/resetpasswords/agent@lite.test/${code}/OtherPass123` });
    expect(reused.statusCode).toBe(400);

    const oldSession = await t.inject({ method: 'GET', url: '/api/auth/me', token: before.token });
    expect(oldSession.statusCode).toBe(401);
    await expect(t.login('agent@lite.test')).rejects.toThrow(/401/);
    const after = await t.login('agent@lite.test', 'NewPass123');
    expect(after.user.email).toBe('agent@lite.test');
  });

  it('stops accepting a code after five wrong tries', async () => {
    await t.inject({ method: 'POST', url: '/api/forgetpassword/admin@lite.test' });
    const mail = await waitFor(() => smtp.inbox.find((raw) => raw.includes('admin@lite.test')));
    const code = /(\d{6})\. Ele vale/.exec(mail.replace(/=\r?\n/g, ''))?.[1] ?? '';
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      await t.inject({ method: 'POST', url: `/api/resetpasswords/admin@lite.test/${wrongCode}/NewPass123` });
    }
    const right = await t.inject({ method: 'POST', url: `/api/resetpasswords/admin@lite.test/${code}/NewPass123` });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
  });

  const mailedCode = async (email: string) => {
    await t.inject({ method: 'POST', url: `/api/forgetpassword/${email}` });
    const mail = await waitFor(() => smtp.inbox.find((raw) => raw.includes(email)));
    return /(\d{6})\. Ele vale/.exec(mail.replace(/=\r?\n/g, ''))?.[1] ?? '';
  };

  it('compares no more than five codes, even when the guesses arrive all at once', async () => {
    const code = await mailedCode('agent@acme.test');
    const guesses = Array.from({ length: 12 }, (_, n) => String((Number(code) + n + 1) % 1_000_000).padStart(6, '0'));
    const burst = await Promise.all(
      guesses.map((guess) => t.inject({ method: 'POST', url: `/api/resetpasswords/agent@acme.test/${guess}/NewPass123` })),
    );
    expect(burst.every((res) => res.statusCode === 400)).toBe(true);
    const row = await t.balcao.core
      .knex('passwordResetCodes')
      .where({ userId: t.demo.users.acmeAgent })
      .orderBy('id', 'desc')
      .first('attempts');
    expect(row.attempts).toBe(5);
    const right = await t.inject({ method: 'POST', url: `/api/resetpasswords/agent@acme.test/${code}/NewPass123` });
    expect(right.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
  });

  it('spends a code once: of concurrent resets with the right code exactly one wins', async () => {
    const code = await mailedCode('admin@acme.test');
    const passwords = ['FirstPass1', 'SecondPass2', 'ThirdPass3', 'FourthPass4'];
    const burst = await Promise.all(
      passwords.map((password) => t.inject({ method: 'POST', url: `/api/resetpasswords/admin@acme.test/${code}/${password}` })),
    );
    expect(burst.map((res) => res.statusCode).sort()).toEqual([200, 400, 400, 400]);
    const winner = passwords[burst.findIndex((res) => res.statusCode === 200)] ?? '';
    expect((await t.login('admin@acme.test', winner)).user.email).toBe('admin@acme.test');
  });
});
