// Brand Documents over real HTTP: reserve → PUT bytes to the storage URL →
// finalize, and each way an upload can fail.
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { allPages, startContextSandbox } from './world.js';
import type { Ctx } from './world.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PDF_BYTES = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
// A ZIP local file header naming [Content_Types].xml, as every DOCX starts.
const DOCX_BYTES = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]), Buffer.alloc(16), Buffer.from('[Content_Types].xml')]);
const PNG_BYTES = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
  await ctx.call('POST', '/context/brands', { body: { slug: 'docs', name: 'Docs' } });
});
afterAll(() => ctx.sb.close());

const reserve = (body: Record<string, unknown>, brand = 'docs') => ctx.call('POST', `/context/brands/${brand}/documents`, { body });
const put = (url: string, bytes: Uint8Array, contentType: string) => fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
const finalize = (id: string, brand = 'docs') => ctx.call('POST', `/context/brands/${brand}/documents/${id}/finalize`);

/** The stored file of a reservation (the upload id rides in the signed token of its URL). */
function fileOf(uploadUrl: string): string {
  const token = uploadUrl.split('/').pop()!;
  const { u } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { u: string };
  return join(ctx.sb.services.filesDir, u);
}

async function uploaded(filename: string, contentType: string, bytes: Uint8Array) {
  const r = await reserve({ filename, contentType });
  expect(r.status).toBe(201);
  expect((await put(r.body.uploadUrl, bytes, contentType)).status).toBe(200);
  return r.body;
}

describe('document uploads', () => {
  it('reserves (pending_upload + uploadUrl), takes bytes at the URL, finalizes to ready; get, list, delete', async () => {
    const r = await reserve({ filename: 'brand-book.pdf', contentType: 'application/pdf', sizeBytes: PDF_BYTES.length });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      documentId: expect.stringMatching(/^doc_/),
      brandSlug: 'docs',
      filename: 'brand-book.pdf',
      contentType: 'application/pdf',
      sizeBytes: null,
      state: 'pending_upload',
      finalizedAt: null,
    });
    expect(r.body.uploadUrl.startsWith(ctx.sb.url + '/_storage/')).toBe(true);
    expect(r.body.uploadExpiresAt).toBeGreaterThan(Date.now() - 60_000);
    const putRes = await put(r.body.uploadUrl, PDF_BYTES, 'application/pdf');
    expect(putRes.status).toBe(200);
    const fin = await finalize(r.body.documentId);
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({ documentId: r.body.documentId, state: 'ready', sizeBytes: PDF_BYTES.length, finalizedAt: expect.any(Number) });
    expect(fin.body).not.toHaveProperty('uploadUrl');
    expect((await finalize(r.body.documentId)).body).toEqual(fin.body); // again: unchanged
    expect((await ctx.call('GET', `/context/brands/docs/documents/${r.body.documentId}`)).body).toEqual(fin.body);
    const ready = await allPages(ctx, '/context/brands/docs/documents', { state: 'ready' });
    expect(ready.map((d) => d.documentId)).toContain(r.body.documentId);
    const file = fileOf(r.body.uploadUrl);
    expect(existsSync(file)).toBe(true);
    const del = await ctx.call('DELETE', `/context/brands/docs/documents/${r.body.documentId}`);
    expect(del.body).toEqual({ deleted: true, brandSlug: 'docs', documentId: r.body.documentId });
    expect(existsSync(file)).toBe(false);
    expect((await ctx.call('GET', `/context/brands/docs/documents/${r.body.documentId}`)).status).toBe(404);
  });

  it('accepts DOCX, Markdown, plain text and CSV by their content', async () => {
    for (const [name, type, bytes] of [
      ['plan.docx', DOCX, DOCX_BYTES],
      ['voice.md', 'text/markdown', Buffer.from('# Voice\nWarm, direct — never pushy. ✓\n')],
      ['notes.txt', 'text/plain; charset=utf-8', Buffer.from('plain notes')],
      ['kw.csv', 'text/csv', Buffer.from('keyword,bid\nboots,1.20\n')],
    ] as const) {
      const doc = await uploaded(name, type, bytes);
      const fin = await finalize(doc.documentId);
      expect(fin.status, name).toBe(200);
      expect(fin.body).toMatchObject({ state: 'ready', sizeBytes: bytes.length, contentType: type.split(';')[0] });
    }
  });

  it('refuses an unaccepted type when reserving: 415 unsupported_type with allowed', async () => {
    const res = await reserve({ filename: 'logo.png', contentType: 'image/png' });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_type');
    expect(res.body.allowed).toEqual(expect.arrayContaining(['application/pdf', DOCX, 'text/plain', 'text/markdown', 'text/csv']));
    expect((await reserve({ filename: 'x' })).status).toBe(400);
  });

  it('answers 409 upload_incomplete when no bytes arrived, and the document stays pending', async () => {
    const r = await reserve({ filename: 'later.pdf', contentType: 'application/pdf' });
    const fin = await finalize(r.body.documentId);
    expect(fin.status).toBe(409);
    expect(fin.body.error).toBe('upload_incomplete');
    expect((await ctx.call('GET', `/context/brands/docs/documents/${r.body.documentId}`)).body.state).toBe('pending_upload');
    await put(r.body.uploadUrl, PDF_BYTES, 'application/pdf');
    expect((await finalize(r.body.documentId)).body.state).toBe('ready');
  });

  it('an upload cut off midway leaves nothing to finalize', async () => {
    const r = await reserve({ filename: 'cut.pdf', contentType: 'application/pdf' });
    const url = new URL(r.body.uploadUrl);
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'content-length': '100000' },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      // Drop the connection once the server is writing the bytes (100,000 were announced).
      req.write(PDF_BYTES, () => void ctx.sb.services.files.busy().then(() => req.destroy()));
    });
    await ctx.sb.services.files.idle();
    const fin = await finalize(r.body.documentId);
    expect(fin.status).toBe(409);
    expect(fin.body.error).toBe('upload_incomplete');
    expect(existsSync(fileOf(r.body.uploadUrl))).toBe(false);
  });

  it('refuses a file over its type’s limit, whatever type the PUT claims: 413 too_large with sizeBytes and limitBytes, file and document deleted', async () => {
    ctx.sb.services.settings.documentLimits = { 'text/plain': 100 };
    try {
      // Sent under another type's (larger) cap: the reservation's cap holds all the same (#13).
      const r = await reserve({ filename: 'big.txt', contentType: 'text/plain' });
      expect((await put(r.body.uploadUrl, Buffer.alloc(500, 'a'), 'text/csv')).status).toBe(413);
      const file = fileOf(r.body.uploadUrl);
      expect(existsSync(file)).toBe(false);
      const fin = await finalize(r.body.documentId);
      expect(fin.status).toBe(413);
      expect(fin.body).toMatchObject({ error: 'too_large', sizeBytes: 500, limitBytes: 100 });
      expect(existsSync(file)).toBe(false);
      expect((await ctx.call('GET', `/context/brands/docs/documents/${r.body.documentId}`)).status).toBe(404);

      // Sent under its own type: the storage endpoint cuts it off while streaming; finalize says why.
      const cut = await reserve({ filename: 'big2.txt', contentType: 'text/plain' });
      expect((await put(cut.body.uploadUrl, Buffer.alloc(5000, 'a'), 'text/plain')).status).toBe(413);
      const fin2 = await finalize(cut.body.documentId);
      expect(fin2.status).toBe(413);
      expect(fin2.body.error).toBe('too_large');
      expect(fin2.body.limitBytes).toBe(100);
      expect(fin2.body.sizeBytes).toBeGreaterThan(100);
      expect(existsSync(fileOf(cut.body.uploadUrl))).toBe(false);
    } finally {
      delete ctx.sb.services.settings.documentLimits;
    }
  });

  it('refuses bytes that are not the reserved type: 415 unsupported_type, file and document deleted', async () => {
    for (const [type, bytes] of [
      ['application/pdf', Buffer.from('just text, no PDF header')],
      [DOCX, PNG_BYTES],
      ['text/plain', PNG_BYTES],
      ['text/markdown', Buffer.from([0xc3, 0x28, 0x41])], // invalid UTF-8
      ['text/csv', Buffer.alloc(0)],
    ] as const) {
      const doc = await uploaded('f', type, bytes);
      const file = fileOf(doc.uploadUrl);
      const fin = await finalize(doc.documentId);
      expect(fin.status, type).toBe(415);
      expect(fin.body.error).toBe('unsupported_type');
      expect(existsSync(file)).toBe(false);
      expect((await ctx.call('GET', `/context/brands/docs/documents/${doc.documentId}`)).status).toBe(404);
    }
  });

  it("deleting a Brand deletes its documents' files; another org sees 404", async () => {
    await ctx.call('POST', '/context/brands', { body: { slug: 'doc-gone', name: 'x' } });
    const r = await reserve({ filename: 'a.pdf', contentType: 'application/pdf' }, 'doc-gone');
    await put(r.body.uploadUrl, PDF_BYTES, 'application/pdf');
    expect((await finalize(r.body.documentId, 'doc-gone')).status).toBe(200);
    expect((await ctx.call('GET', `/context/brands/doc-gone/documents/${r.body.documentId}`, { key: ctx.other })).status).toBe(404);
    expect((await ctx.call('POST', `/context/brands/doc-gone/documents/${r.body.documentId}/finalize`, { key: ctx.other })).status).toBe(404);
    expect((await ctx.call('DELETE', `/context/brands/doc-gone/documents/${r.body.documentId}`, { key: ctx.other })).status).toBe(404);
    const file = fileOf(r.body.uploadUrl);
    expect(existsSync(file)).toBe(true);
    const del = await ctx.call('DELETE', '/context/brands/doc-gone');
    expect(del.body.documentsDeleted).toBe(1);
    expect(existsSync(file)).toBe(false);
  });

  it('a document id is found only through its own Brand', async () => {
    await ctx.call('POST', '/context/brands', { body: { slug: 'doc-a', name: 'a' } });
    await ctx.call('POST', '/context/brands', { body: { slug: 'doc-b', name: 'b' } });
    const r = await reserve({ filename: 'a.pdf', contentType: 'application/pdf' }, 'doc-a');
    expect((await ctx.call('GET', `/context/brands/doc-b/documents/${r.body.documentId}`)).status).toBe(404);
    expect((await ctx.call('GET', `/context/brands/doc-a/documents/${r.body.documentId}`)).status).toBe(200);
  });

  it('an upload URL that expired before any bytes arrived: the PUT is refused and finalize says so', async () => {
    const clock = new ManualClock();
    const timed = await startContextSandbox({ clock });
    try {
      await timed.call('POST', '/context/brands', { body: { slug: 'b', name: 'b' } });
      const r = await timed.call('POST', '/context/brands/b/documents', { body: { filename: 'a.pdf', contentType: 'application/pdf' } });
      expect(r.body.uploadExpiresAt).toBeGreaterThan(clock.now());
      clock.set(r.body.uploadExpiresAt + 1);
      expect((await put(r.body.uploadUrl, PDF_BYTES, 'application/pdf')).status).toBe(403);
      const fin = await timed.call('POST', `/context/brands/b/documents/${r.body.documentId}/finalize`);
      expect(fin.status).toBe(409);
      expect(fin.body.error).toBe('upload_incomplete');
      expect(fin.body.message).toMatch(/expired/);
    } finally {
      await timed.sb.close();
    }
  });
});
