import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelsKit, multipartFile, PNG_1X1 } from '../../testing/kit';
import { GREETING_MEDIA_MAX_BYTES } from '../greeting-media';

/** The greeting's media (docs/product/administration.md#connection-editor: video and image), checked by content. */
let t: TestApp;
let kit: ChannelsKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
});
afterAll(async () => t?.close());

/** The first bytes of an MP4 (an `ftyp` box of brand isom). */
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41', 'latin1'),
  Buffer.alloc(64),
]);

async function upload(token: string, connectionId: number, file: { name: string; type: string; data: Buffer }, field = 'file') {
  const response = await t.inject({
    method: 'POST',
    url: `/api/whatsapp/${connectionId}/media-upload`,
    token,
    ...multipartFile(file, field),
  });
  return { status: response.statusCode, body: response.json() };
}

describe('POST /whatsapp/:whatsappId/media-upload', () => {
  it('stores an image or a video, answers its name and a signed address, and replaces the previous file', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId, { isDefault: true });
    const image = await upload(admin.token, connectionId, { name: 'Boas vindas!.png', type: 'image/png', data: PNG_1X1 });
    expect(image.status).toBe(200);
    expect(image.body.greetingMediaAttachment).toBe('Boas_vindas_.png');
    expect(image.body.greetingMediaUrl).toMatch(/\/api\/media\//);
    const firstKey = (await kit.row(connectionId))?.greetingMediaAttachment as string;
    expect(firstKey).toMatch(new RegExp(`^greetings/${connectionId}/[0-9a-f]{8}-Boas_vindas_\\.png$`));
    const fetched = await t.inject({ method: 'GET', url: image.body.greetingMediaUrl.replace(/^https?:\/\/[^/]+/, '') });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.rawPayload.equals(PNG_1X1)).toBe(true);

    const video = await upload(admin.token, connectionId, { name: 'promo.mp4', type: 'application/octet-stream', data: MP4 });
    expect(video.body.greetingMediaAttachment).toBe('promo.mp4');
    expect(await kit.ctx.storage.stat(companyId, firstKey)).toBeNull();
  });

  it('refuses what is no image or video by content, whatever it declares', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId);
    for (const file of [
      { name: 'evil.png', type: 'image/png', data: Buffer.from('<svg onload="alert(1)"></svg>') },
      { name: 'doc.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n') },
      { name: 'empty.png', type: 'image/png', data: Buffer.alloc(0) },
    ]) {
      expect(await upload(admin.token, connectionId, file)).toEqual({
        status: 415,
        body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' },
      });
    }
    const tooBig = Buffer.concat([PNG_1X1, Buffer.alloc(GREETING_MEDIA_MAX_BYTES)]);
    expect(await upload(admin.token, connectionId, { name: 'big.png', type: 'image/png', data: tooBig })).toEqual({
      status: 413,
      body: { error: 'ERR_PAYLOAD_TOO_LARGE' },
    });
    expect(
      (await upload(admin.token, connectionId, { name: 'a.png', type: 'image/png', data: PNG_1X1 }, 'other')).body.error,
    ).toBe('ERR_VALIDATION');
    const json = await t.inject({
      method: 'POST',
      url: `/api/whatsapp/${connectionId}/media-upload`,
      token: admin.token,
      payload: {},
    });
    expect(json.json()).toEqual({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE' });
    expect((await kit.row(connectionId))?.greetingMediaAttachment).toBeNull();
    expect((await kit.ctx.storage.usage(companyId)).files).toBe(0);
  });
});

describe('DELETE /whatsapp/:whatsappId/media-upload', () => {
  it('removes the file and clears the field; deleting the connection removes it too', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId, { isDefault: true });
    await upload(admin.token, connectionId, { name: 'a.png', type: 'image/png', data: PNG_1X1 });
    const key = (await kit.row(connectionId))?.greetingMediaAttachment as string;
    const cleared = await kit.call(admin, 'DELETE', `/whatsapp/${connectionId}/media-upload`);
    expect(cleared.body).toMatchObject({ greetingMediaAttachment: null, greetingMediaUrl: null });
    expect(await kit.ctx.storage.stat(companyId, key)).toBeNull();

    await upload(admin.token, connectionId, { name: 'b.png', type: 'image/png', data: PNG_1X1 });
    const second = (await kit.row(connectionId))?.greetingMediaAttachment as string;
    expect((await kit.call(admin, 'DELETE', `/whatsapp/${connectionId}`)).status).toBe(204);
    expect(await kit.ctx.storage.stat(companyId, second)).toBeNull();
  });
});
