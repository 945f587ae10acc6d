#!/usr/bin/env node
// The baselines of bench/sync.js, bare node:http with a keep-alive Agent:
//   upload URL DIR CONCURRENCY   per file: POST /assets/uploads, PUT the bytes
//                                to its upload URL, POST /assets/{id}/finalize;
//                                CONCURRENCY files in flight
//   plan URL DIR                 list every ready Asset (pages of 100) and hash
//                                every file (SHA-256): what a re-run with
//                                nothing to send must learn at the least
// Prints {"files":N,"ok":N,"ms":T}. Key in ADOPS_API_KEY.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

const [mode, base, dir, conc = '8'] = process.argv.slice(2);
const key = process.env.ADOPS_API_KEY;
const agent = new Agent({ keepAlive: true, maxSockets: Number(conc) });

function call(method, url, { json, bytes, contentType, auth = true } = {}) {
  const body = json !== undefined ? Buffer.from(JSON.stringify(json)) : bytes;
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(url, base),
      {
        method,
        agent,
        headers: {
          ...(auth ? { authorization: `Bearer ${key}` } : {}),
          ...(body ? { 'content-type': json !== undefined ? 'application/json' : contentType, 'content-length': body.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode, body: /json/.test(String(res.headers['content-type'])) ? JSON.parse(text) : text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const files = readdirSync(dir).sort();
const t0 = performance.now();
let ok = 0;
if (mode === 'upload') {
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(conc) }, async () => {
      while (next < files.length) {
        const name = files[next++];
        const bytes = readFileSync(join(dir, name));
        const r = await call('POST', '/assets/uploads', { json: { filename: name, contentType: 'image/png', sizeBytes: bytes.length } });
        const put = await call('PUT', r.body.uploadUrl, { bytes, contentType: 'image/png', auth: false });
        const fin = await call('POST', `/assets/${r.body.id}/finalize`);
        if (r.status === 201 && put.status === 200 && fin.status === 200 && fin.body.state === 'ready') ok++;
      }
    }),
  );
} else {
  const names = new Map();
  let cursor;
  do {
    const r = await call('GET', `/assets?state=ready&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const a of r.body.data) names.set(a.filename, a);
    cursor = r.body.nextCursor;
  } while (cursor);
  for (const name of files) {
    const path = join(dir, name);
    statSync(path);
    const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (names.get(name)?.sha256 === sha) ok++;
  }
}
console.log(JSON.stringify({ files: files.length, ok, ms: performance.now() - t0 }));
agent.destroy();
