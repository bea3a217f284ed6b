import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaSigner } from './signed-media';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('GET /media/:token (signed media addresses)', () => {
  it('serves the file a signed address names, with its type and download name', async () => {
    const companyId = t.demo.companies.acme;
    await t.balcao.core.storage.put(companyId, 'media/7/photo.png', Buffer.from('png bytes'));
    const url = t.balcao.core.storage.signedUrl(companyId, 'media/7/photo.png', { fileName: 'foto da loja.png' });
    expect(url).toMatch(/^\/api\/media\/[\w-]+\.[\w-]+$/);
    const res = await t.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('png bytes');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe("inline; filename*=UTF-8''foto%20da%20loja.png");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps the link of a file with a very long name working: the download name is shortened, extension kept', async () => {
    const companyId = t.demo.companies.acme;
    const key = `media/123456/0123456789abcdef-${'a'.repeat(80)}.pdf`;
    await t.balcao.core.storage.put(companyId, key, Buffer.from('%PDF'));
    for (const long of [`${'relatório trimestral '.repeat(10)}.pdf`, `${'ç'.repeat(210)}.pdf`, `${'😀'.repeat(200)}.pdf`]) {
      const url = t.balcao.core.storage.signedUrl(companyId, key, { fileName: long });
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode, `${long.length} characters`).toBe(200);
      const offered = decodeURIComponent(String(res.headers['content-disposition']).split("''")[1] ?? '');
      expect(offered.endsWith('.pdf')).toBe(true);
      expect(Array.from(offered).length).toBeLessThanOrEqual(60);
    }
  });

  it('offers anything a browser could run (HTML, SVG) as a download, never inline', async () => {
    const companyId = t.demo.companies.acme;
    await t.balcao.core.storage.put(companyId, 'media/7/page.html', Buffer.from('<script>alert(1)</script>'));
    const res = await t.inject({ method: 'GET', url: t.balcao.core.storage.signedUrl(companyId, 'media/7/page.html') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
  });

  it('refuses a forged, altered or expired address with a 404', async () => {
    const companyId = t.demo.companies.acme;
    await t.balcao.core.storage.put(companyId, 'media/7/secret.pdf', Buffer.from('%PDF'));
    const good = tokenOf(t.balcao.core.storage.signedUrl(companyId, 'media/7/secret.pdf'));
    const [payload, mac] = good.split('.') as [string, string];

    // the same grant for another company, signed with another secret
    const forged = new MediaSigner('another secret of at least 32 characters!!').sign({
      companyId: t.demo.companies.lite,
      key: 'media/7/secret.pdf',
      expiresAt: Date.now() + 60_000,
    });
    // a payload naming another company, with the original signature
    const altered = `${Buffer.from(
      JSON.stringify({ c: t.demo.companies.lite, k: 'media/7/secret.pdf', e: Date.now() + 60_000, n: null }),
    ).toString('base64url')}.${mac}`;
    const expired = tokenOf(t.balcao.core.storage.signedUrl(companyId, 'media/7/secret.pdf', { ttlMs: -1 }));

    for (const token of [forged, altered, expired, `${payload}.${mac.slice(0, -2)}AA`]) {
      const res = await t.inject({ method: 'GET', url: `/api/media/${token}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    }
  });

  it("never reaches another company's file: the key is looked up in the grant's company only", async () => {
    const acme = t.demo.companies.acme;
    const lite = t.demo.companies.lite;
    await t.balcao.core.storage.put(lite, 'media/1/lite-only.png', Buffer.from('lite'));
    const res = await t.inject({ method: 'GET', url: t.balcao.core.storage.signedUrl(acme, 'media/1/lite-only.png') });
    expect(res.statusCode).toBe(404);
  });

  it('refuses to sign a key that climbs out of the company folder', () => {
    expect(() => t.balcao.core.storage.signedUrl(t.demo.companies.acme, '../company2/x.png')).toThrow();
  });
});
