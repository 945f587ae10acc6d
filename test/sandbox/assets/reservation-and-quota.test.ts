// Issue 13, items 17, 18 and 22 on the sandbox's side: the storage takes what
// the reservation named (type and size), not what a PUT claims; every
// organization has a quota on bytes stored plus in flight; and a refusal the
// storage can make at once is answered before the client sends a byte
// (Expect: 100-continue), so the client reads it instead of a reset.
import { connect } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestSandbox } from '../../helpers/sandbox.js';
import { storedBytes } from '../../../src/sandbox/models/uploads/quota.js';
import { mp4, png } from '../../unit/uploads/media-samples.js';
import { put, putStream, reserve, storedFiles, upload } from './upload-helpers.js';

const sb = useTestSandbox();
beforeEach(() => {
  delete sb.services.settings.storageQuotaBytes;
});

const finalize = (id: string) => sb.req('POST', `/assets/${id}/finalize`, { key: sb.keys.full });
const get = (id: string) => sb.req('GET', `/assets/${id}`, { key: sb.keys.full });
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length)]);

/** A body that never ends (chunked, no Content-Length), counting what it gave. */
function endless(sent: { bytes: number }): ReadableStream<Uint8Array> {
  const head = mp4();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = sent.bytes === 0 ? padded(head, 64 * 1024) : new Uint8Array(64 * 1024);
      sent.bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

describe('the storage takes what the reservation named (#13 item 17)', () => {
  it('an Asset reserved as a 1,000-byte PNG is cut off at 1,000 bytes, whatever Content-Type the PUT claims', async () => {
    const reserved = await reserve(sb, { filename: 'small.png', contentType: 'image/png', sizeBytes: 1000 });
    // 200 KiB of real MP4 sent as video/mp4 (the old code took it under the video limit and made it ready).
    const sent = await put(reserved.uploadUrl, padded(mp4(), 200 * 1024), 'video/mp4');
    expect(sent.status).toBe(413);
    expect(sent.body.error).toBe('too_large');
    expect(sent.body.message).toMatch(/1000-byte limit of its reservation/);
    expect((await storedFiles(sb)).temp).toEqual([]);
    const fin = await finalize(reserved.id);
    expect(fin.status).toBe(413);
    expect((await get(reserved.id)).status).toBe(404);
  });

  it('the same cut for a streamed body with no declared length', async () => {
    const reserved = await reserve(sb, { filename: 'small.png', contentType: 'image/png', sizeBytes: 1000 });
    const sent = { bytes: 0 };
    const res = await fetch(reserved.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: endless(sent),
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect((await storedFiles(sb)).temp).toEqual([]);
    expect((await finalize(reserved.id)).body.error).toBe('too_large');
  });

  it('bytes of another accepted type than the one reserved: 415 type_mismatch at finalize, deleted', async () => {
    const reserved = await reserve(sb, { filename: 'small.png', contentType: 'image/png', sizeBytes: 1000 });
    expect((await put(reserved.uploadUrl, mp4(), 'video/mp4')).status).toBe(200);
    const fin = await finalize(reserved.id);
    expect(fin.status).toBe(415);
    expect(fin.body.error).toBe('type_mismatch');
    expect(fin.body.message).toMatch(/video\/mp4, not the type the asset was reserved as \(image\/png\)/);
    expect((await get(reserved.id)).status).toBe(404);
  });

  it('what the reservation named is still accepted: the same PNG at its size becomes ready', async () => {
    const bytes = padded(png(), 1000);
    const reserved = await reserve(sb, { filename: 'ok.png', contentType: 'image/png', sizeBytes: 1000 });
    expect((await put(reserved.uploadUrl, bytes, 'image/png')).status).toBe(200);
    const fin = await finalize(reserved.id);
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({ state: 'ready', mimeType: 'image/png', sizeBytes: 1000 });
  });

  it('a Document reserved with a size over its type limit is refused at once (413 with sizeBytes and limitBytes), nothing reserved', async () => {
    await sb.req('POST', '/context/brands', { key: sb.keys.full, body: { slug: 'quota-docs', name: 'Q' } });
    sb.services.settings.documentLimits = { 'text/markdown': 100 };
    try {
      const res = await sb.req('POST', '/context/brands/quota-docs/documents', {
        key: sb.keys.full,
        body: { filename: 'big.md', contentType: 'text/markdown', sizeBytes: 101 },
      });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ error: 'too_large', sizeBytes: 101, limitBytes: 100 });
      const list = await sb.req('GET', '/context/brands/quota-docs/documents', { key: sb.keys.full });
      expect(list.body.data).toEqual([]);
    } finally {
      delete sb.services.settings.documentLimits;
    }
  });
});

describe('a per-organization storage quota (#13 item 18)', () => {
  it('counts stored bytes: a PUT that would pass the quota is refused (413 too_large), finalize deletes it; room comes back after a delete', async () => {
    sb.services.settings.storageQuotaBytes = (await storedBytesOfOrg()) + 10_000;
    const first = await upload(sb, padded(png(), 6000), 'image/png', 'one.png');
    expect(first.finalized.status).toBe(200);

    const second = await reserve(sb, { filename: 'two.png' });
    const sent = await put(second.uploadUrl, padded(png(), 6000), 'image/png');
    expect(sent.status).toBe(413);
    expect(sent.body.error).toBe('too_large');
    expect(sent.body.message).toMatch(/storage quota/);
    const fin = await finalize(second.id);
    expect(fin.status).toBe(413);
    expect(fin.body.message).toMatch(/storage quota/);
    expect((await get(second.id)).status).toBe(404);

    expect((await sb.req('DELETE', `/assets/${first.reserved.id}`, { key: sb.keys.full })).status).toBe(200);
    const third = await upload(sb, padded(png(), 6000), 'image/png', 'three.png');
    expect(third.finalized.status).toBe(200);
  });

  it('cuts an endless chunked stream at the quota and removes its temp file', async () => {
    sb.services.settings.storageQuotaBytes = (await storedBytesOfOrg()) + 1024 * 1024;
    const reserved = await reserve(sb, { filename: 'endless.mp4' });
    const sent = { bytes: 0 };
    const res = await fetch(reserved.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: endless(sent),
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe('too_large');
    await sb.services.files.idle();
    expect((await storedFiles(sb)).temp).toEqual([]);
    expect(sb.services.uploadsInFlight.of('org_test')).toBe(0);
    expect((await finalize(reserved.id)).body.error).toBe('too_large');
  });

  it('counts bytes in flight: a second PUT while the first streams has only the room the first leaves', async () => {
    sb.services.settings.storageQuotaBytes = (await storedBytesOfOrg()) + 100_000;
    const a = await reserve(sb, { filename: 'a.mp4' });
    const b = await reserve(sb, { filename: 'b.mp4' });
    // The first PUT sends 80 KB of its 90 KB and holds there until the second is answered.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    // An event, not a poll: the ledger says when the first PUT's 80 KB are counted in flight.
    const ledger = sb.services.uploadsInFlight;
    const take = ledger.take.bind(ledger);
    let counted = () => {};
    const at80k = new Promise<void>((r) => (counted = r));
    ledger.take = (org, bytes, stored, quota) => {
      const ok = take(org, bytes, stored, quota);
      if (ledger.of('org_test') >= 80_000) counted();
      return ok;
    };
    try {
      const first = putStream(a.uploadUrl, { contentType: 'video/mp4', total: 90_000, chunk: 10_000, cutAfter: 80_000, cutWhen: held });
      await at80k;
      const second = await put(b.uploadUrl, padded(mp4(), 30_000), 'video/mp4');
      expect(second.status).toBe(413);
      expect(second.body.message).toMatch(/storage quota/);
      release();
      await first;
    } finally {
      ledger.take = take;
    }
  });
});

describe('an upload refused at once is answered before the body is sent (#13 item 22)', () => {
  /** Raw request with Expect: 100-continue; what the storage says first. */
  function firstAnswer(url: string, length: number): Promise<string> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(u.port), u.hostname, () => {
        socket.write(
          `PUT ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: text/markdown\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`,
        );
      });
      let text = '';
      socket.on('data', (d) => {
        text += d.toString();
        if (text.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(text.split('\r\n')[0]!);
        }
      });
      socket.on('error', reject);
    });
  }

  it('answers 413 without a 100 Continue when the declared length is over the cap, and 100 Continue when it fits', async () => {
    await sb.req('POST', '/context/brands', { key: sb.keys.full, body: { slug: 'early', name: 'Early' } });
    sb.services.settings.documentLimits = { 'text/markdown': 1000 };
    try {
      const over = await sb.req('POST', '/context/brands/early/documents', { key: sb.keys.full, body: { filename: 'a.md', contentType: 'text/markdown' } });
      expect(await firstAnswer(over.body.uploadUrl, 5000)).toBe('HTTP/1.1 413 Payload Too Large');
      const fits = await sb.req('POST', '/context/brands/early/documents', { key: sb.keys.full, body: { filename: 'b.md', contentType: 'text/markdown' } });
      expect(await firstAnswer(fits.body.uploadUrl, 500)).toBe('HTTP/1.1 100 Continue');
    } finally {
      delete sb.services.settings.documentLimits;
    }
  });
});

async function storedBytesOfOrg(): Promise<number> {
  return storedBytes(sb.services.db, 'org_test');
}
