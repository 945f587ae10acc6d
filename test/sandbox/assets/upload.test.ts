// The upload flow over HTTP: reserve → PUT to the storage URL → finalize, with
// real file signatures for every accepted type and every failure mode.
import { describe, expect, it } from 'vitest';
import { startTestSandbox, useTestSandbox } from '../../helpers/sandbox.js';
import { ManualClock } from '../clock.js';
import { SAMPLES, gif, jpeg, png } from '../../unit/uploads/media-samples.js';
import { put, putStream, reserve, storedFiles, upload } from './upload-helpers.js';

const sb = useTestSandbox();

const finalize = (id: string) => sb.req('POST', `/assets/${id}/finalize`, { key: sb.keys.full });
const get = (id: string) => sb.req('GET', `/assets/${id}`, { key: sb.keys.full });

describe('reserve', () => {
  it('answers a reserved asset with an upload URL on the sandbox itself', async () => {
    const res = await sb.req('POST', '/assets/uploads', { key: sb.keys.full, body: { filename: 'hero.jpg', contentType: 'image/jpeg' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ filename: 'hero.jpg', state: 'reserved', kind: null, mimeType: null, sizeBytes: null, revision: 1, registrations: [] });
    expect(res.body.id).toMatch(/^ast_/);
    expect(res.body.uploadUrl.startsWith(`${sb.url}/_storage/uploads/`)).toBe(true);
    expect(res.body.uploadExpiresAt).toBe(res.body.createdAt + 15 * 60 * 1000);
  });

  it('requires a string filename (400 with issues)', async () => {
    for (const body of [{}, { filename: 3 }, { filename: '' }]) {
      const res = await sb.req('POST', '/assets/uploads', { key: sb.keys.full, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.issues[0]).toMatchObject({ in: 'body', path: '/filename' });
    }
  });

  it('refuses a declared size over the limit of the declared type (413 too_large)', async () => {
    const res = await sb.req('POST', '/assets/uploads', {
      key: sb.keys.full,
      body: { filename: 'big.png', contentType: 'image/png', sizeBytes: 30 * 1024 * 1024 + 1 },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('too_large');
    const video = await sb.req('POST', '/assets/uploads', { key: sb.keys.full, body: { filename: 'v.mp4', contentType: 'video/mp4', sizeBytes: 2 ** 31 } });
    expect(video.status).toBe(201);
  });
});

describe('finalize accepts every type by its signature', () => {
  it.each(SAMPLES)('$name → ready with kind and media type', async ({ bytes, mimeType, kind }) => {
    const data = bytes();
    const reserved = await reserve(sb, { filename: `sample.${mimeType.split('/')[1]}` });
    expect((await put(reserved.uploadUrl, data, mimeType)).status).toBe(200);
    expect((await get(reserved.id)).body.state).toBe('uploaded');
    const res = await finalize(reserved.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reserved.id, state: 'ready', kind, mimeType, sizeBytes: data.length, revision: 2 });
    expect((await get(reserved.id)).body).toEqual(res.body);
    // Finalizing again changes nothing.
    expect((await finalize(reserved.id)).body).toEqual(res.body);
  });

  it('reads image dimensions and accepts a Content-Type with parameters or other case', async () => {
    const { finalized } = await upload(sb, jpeg(1080, 1350), 'Image/JPEG; charset=binary');
    expect(finalized.status).toBe(200);
    expect(finalized.body).toMatchObject({ mimeType: 'image/jpeg', width: 1080, height: 1350 });
  });
});

describe('finalize refusals delete the asset and its file', () => {
  async function refused(bytes: Uint8Array, contentType: string) {
    const { reserved, finalized } = await upload(sb, bytes, contentType);
    expect((await get(reserved.id)).status).toBe(404);
    return finalized;
  }

  it('415 type_mismatch when the bytes are not the sent Content-Type', async () => {
    const res = await refused(png(), 'image/jpeg');
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('type_mismatch');
    const noType = await refused(gif(), 'application/octet-stream');
    expect(noType.body.error).toBe('type_mismatch');
  });

  it('415 unreadable for bytes of no accepted type', async () => {
    const res = await refused(Buffer.from('%PDF-1.7\n not media'), 'image/png');
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unreadable');
    expect((await refused(Buffer.from('just text'), 'text/plain')).body.error).toBe('unreadable');
  });

  it.each(SAMPLES)('415 unreadable for a $name that ends inside its header', async ({ bytes, headerBytes, mimeType }) => {
    const res = await refused(bytes().subarray(0, headerBytes - 1), mimeType);
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unreadable');
  });

  it('leaves no file behind after a refusal', async () => {
    const before = (await storedFiles(sb)).files.length;
    await refused(png(), 'image/gif');
    expect((await storedFiles(sb)).files.length).toBe(before);
  });
});

describe('limits while streaming', () => {
  it('cuts an upload at its type limit; finalize answers 413 too_large and deletes the asset', async () => {
    sb.services.settings.assetLimits = { 'image/png': 1024 };
    try {
      const reserved = await reserve(sb, { filename: 'big.png' });
      const big = Buffer.concat([png(), Buffer.alloc(2000)]);
      const sent = await put(reserved.uploadUrl, big, 'image/png');
      expect(sent.status).toBe(413);
      expect(sent.body.error).toBe('too_large');
      expect(await storedFiles(sb).then((f) => f.temp)).toEqual([]);
      const res = await finalize(reserved.id);
      expect(res.status).toBe(413);
      expect(res.body.error).toBe('too_large');
      expect((await get(reserved.id)).status).toBe(404);

      // Exactly at the limit is accepted.
      const exact = Buffer.concat([png(), Buffer.alloc(1024 - png().length)]);
      const ok = await upload(sb, exact, 'image/png');
      expect(ok.finalized.status).toBe(200);
      expect(ok.finalized.body.sizeBytes).toBe(1024);
    } finally {
      delete sb.services.settings.assetLimits;
    }
  });

  it('also cuts a streamed body with no declared length', async () => {
    sb.services.settings.assetLimits = { 'image/gif': 100 };
    try {
      const reserved = await reserve(sb, { filename: 'chunked.gif' });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(50));
          controller.close();
        },
      });
      const res = await fetch(reserved.uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/gif' }, body, duplex: 'half' });
      expect(res.status).toBe(413);
      expect((await finalize(reserved.id)).body.error).toBe('too_large');
    } finally {
      delete sb.services.settings.assetLimits;
    }
  });
});

describe('the storage URL', () => {
  it('is good for one complete upload only', async () => {
    const reserved = await reserve(sb);
    expect((await put(reserved.uploadUrl, png(), 'image/png')).status).toBe(200);
    const again = await put(reserved.uploadUrl, gif(), 'image/gif');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('upload_already_received');
    expect((await finalize(reserved.id)).body).toMatchObject({ state: 'ready', mimeType: 'image/png' });
    expect((await put(reserved.uploadUrl, png(), 'image/png')).status).toBe(409);
  });

  it('refuses a forged or edited token (403 invalid_upload_token)', async () => {
    const reserved = await reserve(sb);
    const url = new URL(reserved.uploadUrl);
    const token = url.pathname.split('/').pop()!;
    const [v, payload, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const edited = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 3_600_000 })).toString('base64url');
    // The signature's first character changed: all six of its bits are data (a last character's low bits are
    // padding a decoder ignores, and a tail of 'AA' was the real one about once in a thousand runs).
    const forged = `${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`;
    for (const bad of [`${v}.${edited}.${sig}`, `${v}.${payload}.${forged}`, 'v1.e30.AAAA', 'nonsense']) {
      const res = await put(`${sb.url}/_storage/uploads/${bad}`, png(), 'image/png');
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('invalid_upload_token');
    }
    // The same signature bytes spelled another way (the last character's spare bits set) is not the token.
    const last = sig.slice(-1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${sig.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
    expect((await put(`${sb.url}/_storage/uploads/${v}.${payload}.${respelled}`, png(), 'image/png')).status).toBe(403);
    // The real token still works afterwards.
    expect((await put(reserved.uploadUrl, png(), 'image/png')).status).toBe(200);
  });

  it('refuses an Authorization header: the URL is its own credential', async () => {
    const reserved = await reserve(sb);
    const res = await put(reserved.uploadUrl, png(), 'image/png', { authorization: `Bearer ${sb.keys.full}` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', issues: [{ in: 'headers', path: '/authorization' }] });
    expect((await get(reserved.id)).body.state).toBe('reserved');
  });

  it('answers 404 once the asset was deleted', async () => {
    const reserved = await reserve(sb);
    expect((await sb.req('DELETE', `/assets/${reserved.id}`, { key: sb.keys.full })).status).toBe(200);
    const res = await put(reserved.uploadUrl, png(), 'image/png');
    expect(res.status).toBe(404);
  });

  it('is not an operation: absent from every OpenAPI document', async () => {
    const doc = await sb.req('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths).some((p) => p.includes('_storage'))).toBe(false);
  });
});

describe('bytes that never arrived', () => {
  it('finalize before any PUT answers 409 upload_incomplete and keeps the reservation', async () => {
    const reserved = await reserve(sb);
    const res = await finalize(reserved.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('upload_incomplete');
    expect((await get(reserved.id)).body.state).toBe('reserved');
  });

  it('an upload cut off midway leaves no file; finalize says incomplete; the URL still works', async () => {
    const reserved = await reserve(sb);
    // Cut once the server is writing the bytes (it waits for the rest: 4 MiB were announced).
    const cut = await putStream(reserved.uploadUrl, {
      contentType: 'image/png',
      total: 4 * 1024 * 1024,
      chunk: 64 * 1024,
      cutAfter: 1024 * 1024,
      cutWhen: sb.services.files.busy(),
    });
    expect(cut.status).toBeNull();
    // The server notices the abort on its own time: wait for its write to end, then look.
    await sb.services.files.idle();
    expect((await storedFiles(sb)).temp).toEqual([]);
    const res = await finalize(reserved.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('upload_incomplete');
    expect((await get(reserved.id)).body.state).toBe('reserved');
    // The token was not consumed by the cut-off attempt.
    expect((await put(reserved.uploadUrl, png(), 'image/png')).status).toBe(200);
    expect((await finalize(reserved.id)).status).toBe(200);
  });
});

describe('upload URL expiry (sandbox clock)', () => {
  it('refuses to start an upload at or after uploadExpiresAt (403 upload_url_expired)', async () => {
    const clock = new ManualClock();
    const timed = await startTestSandbox({ clock });
    try {
      const a = await reserve(timed);
      const b = await reserve(timed);
      expect(b.uploadExpiresAt).toBe(a.uploadExpiresAt);
      clock.set(a.uploadExpiresAt - 1);
      expect((await put(a.uploadUrl, png(), 'image/png')).status).toBe(200);
      clock.set(b.uploadExpiresAt);
      const res = await put(b.uploadUrl, png(), 'image/png');
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('upload_url_expired');
      expect((await timed.req('GET', `/assets/${b.id}`, { key: timed.keys.full })).body.state).toBe('reserved');
    } finally {
      await timed.close();
    }
  });
});
