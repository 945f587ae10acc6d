// Helpers of the Assets tests: reserve, send bytes to the storage URL the way a
// client would (whole, streamed, or cut off), and look at the file store.
import { request as httpRequest } from 'node:http';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestSandbox } from '../../helpers/sandbox.js';

export async function reserve(sb: TestSandbox, body: Record<string, unknown> = { filename: 'file.bin' }, key = sb.keys.full) {
  const res = await sb.req('POST', '/assets/uploads', { key, body });
  if (res.status !== 201) throw new Error(`reserve answered ${res.status}: ${res.text}`);
  return res.body as { id: string; uploadUrl: string; uploadExpiresAt: number; revision: number; state: string };
}

export async function put(url: string, bytes: Uint8Array, contentType?: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'PUT',
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
    body: bytes,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Reserve, PUT, finalize; answers the finalize response. */
export async function upload(sb: TestSandbox, bytes: Uint8Array, contentType: string, filename = 'file.bin') {
  const reserved = await reserve(sb, { filename });
  const sent = await put(reserved.uploadUrl, bytes, contentType);
  if (sent.status !== 200) throw new Error(`PUT answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  return { reserved, finalized: await sb.req('POST', `/assets/${reserved.id}/finalize`, { key: sb.keys.full }) };
}

/**
 * PUT `total` bytes in chunks through a raw HTTP request with a declared
 * Content-Length; `cutAfter` bytes in, the connection is destroyed mid-body.
 */
export function putStream(
  url: string,
  opts: {
    contentType: string;
    total: number;
    chunk?: number;
    /** Stop sending after this many bytes, then drop the connection (once `cutWhen` resolves, if given). */
    cutAfter?: number;
    cutWhen?: Promise<unknown>;
    fill?: (offset: number, chunk: Buffer) => void;
  },
): Promise<{ status: number | null; body: string; error?: string }> {
  const chunkSize = opts.chunk ?? 1024 * 1024;
  const buffer = Buffer.alloc(chunkSize, 0x61);
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: 'PUT', headers: { 'content-type': opts.contentType, 'content-length': String(opts.total) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? null, body }));
    });
    req.on('error', (err) => resolve({ status: null, body: '', error: err.message }));
    let sent = 0;
    const pump = () => {
      while (sent < opts.total) {
        if (opts.cutAfter !== undefined && sent >= opts.cutAfter) {
          if (opts.cutWhen) void opts.cutWhen.then(() => req.destroy());
          else req.destroy();
          return;
        }
        const n = Math.min(chunkSize, opts.total - sent);
        const piece = n === chunkSize ? buffer : buffer.subarray(0, n);
        opts.fill?.(sent, piece);
        sent += n;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/** Finished files and temp files in the sandbox's file store. */
export async function storedFiles(sb: TestSandbox): Promise<{ files: string[]; temp: string[] }> {
  const dir = sb.services.filesDir;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
  const temp = await readdir(join(dir, '.tmp')).catch(() => [] as string[]);
  return { files, temp };
}
