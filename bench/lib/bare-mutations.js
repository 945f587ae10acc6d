#!/usr/bin/env node
// The baseline of bench/apply.js: a bare keep-alive loop (node:http Agent,
// keepAlive) sending the same POST /mutations bodies, each with its own
// Idempotency-Key, CONCURRENCY in flight; nothing else (no journal, no checks).
// Prints {"rows":N,"ok":N,"ms":T} (T from its first request to its last answer).
//   node bench/lib/bare-mutations.js URL BODIES.ndjson CONCURRENCY   (key in ADOPS_API_KEY)
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [url, file, conc] = process.argv.slice(2);
const key = process.env.ADOPS_API_KEY;
const bodies = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const agent = new Agent({ keepAlive: true, maxSockets: Number(conc) });
const target = new URL('/mutations', url);

const post = (body) =>
  new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': randomUUID(),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve(res.statusCode);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });

let next = 0;
let ok = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: Number(conc) }, async () => {
    while (next < bodies.length) {
      const status = await post(bodies[next++]);
      if (status >= 200 && status < 300) ok++;
    }
  }),
);
console.log(JSON.stringify({ rows: bodies.length, ok, ms: performance.now() - t0 }));
agent.destroy();
