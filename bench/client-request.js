#!/usr/bin/env node
// The client's own cost per request (#37): in one process, N requests
// (concurrency 8) against a trivial node:http server answering a fixed JSON
// body (a started mutation), sent
//   (a) by a bare node:http keep-alive loop (headers, body, read, JSON.parse);
//   (b) through the built client as `mutations apply` sends a row
//       (dist/client: ApiClient configured as src/cli/run.ts does,
//       operationRequest('createMutation') with an Idempotency-Key, a send
//       budget and a throttle gate, client.request), without the answer check;
//   (c) (b) and the answer checked against the contract (checkAnswer
//       'mutationStarted'), as the flow does before it records the id.
// Each phase is timed by process.cpuUsage deltas (user + system of this
// process; the server is a child process, so its CPU is not counted), after a
// warm-up round of the same size, and the phases alternate (a b c a b c ...)
// so load drifts hit each alike; the least of the rounds is printed.
//   node bench/client-request.js [--n 900,20000] [--rounds 3]
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import { fileURLToPath } from 'node:url';

const KEY = 'acr_bench_client_0001';
const ANSWER = JSON.stringify({
  id: 'mut_0000000000000001',
  advertiserId: 'acc_bench',
  action: 'pause',
  state: 'pending',
  createdAt: 1_790_000_000_000,
  updatedAt: 1_790_000_000_000,
});

if (process.argv[2] === '--server') {
  const body = Buffer.from(ANSWER);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('disconnect', () => process.exit(0));
} else {
  await main();
}

async function main() {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const sizes = String(arg('n', '900,20000')).split(',').map(Number);
  const rounds = Number(arg('rounds', 3));
  const CONCURRENCY = 8;

  const child = fork(fileURLToPath(import.meta.url), ['--server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve) => child.once('message', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const row = { advertiserId: 'acc_bench', action: 'pause', target: { kind: 'campaign', id: 'cmp_0001' } };

  // (a) the bare loop
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL('/mutations', origin);
  const bare = () =>
    new Promise((resolve, reject) => {
      const text = JSON.stringify(row);
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      headers['content-length'] = Buffer.byteLength(text);
      headers['idempotency-key'] = randomUUID();
      const req = request(target, { method: 'POST', agent, headers });
      req.once('response', (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c)).once('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      });
      req.once('error', reject).end(text);
    });

  // (b), (c) the client, as a command builds it (src/cli/run.ts clientConfigOf) and as mutation-start.ts calls it
  const { ApiClient } = await import('../dist/client/http.js');
  const { operationRequest } = await import('../dist/client/call.js');
  const { DEFAULT_RETRY, DEFAULT_THROTTLE, ThrottleGate } = await import('../dist/client/retry.js');
  const { checkAnswer } = await import('../dist/client/answer-check.js');
  const client = new ApiClient({
    baseUrl: origin,
    apiKey: KEY,
    userAgent: 'adops/bench (node)',
    requestTimeoutMs: 30_000,
    connectTimeoutMs: 10_000,
    retry: { ...DEFAULT_RETRY, throttle: { ...DEFAULT_THROTTLE } },
    onRetryWait: () => {},
  });
  const gate = new ThrottleGate();
  const signal = new AbortController().signal;
  const viaClient = async (check) => {
    const sends = client.sendBudget();
    const req = operationRequest('createMutation', { headers: { 'idempotency-key': randomUUID() }, body: row }, { signal, sends, gate });
    const res = await client.request(req);
    return check ? checkAnswer('mutationStarted', res.body, { status: res.status }) : res.body;
  };

  const all = { bare: () => bare(), client: () => viaClient(false), 'client+check': () => viaClient(true) };
  // --phases bare,client: only those (to profile one alone); the figure needs bare and client.
  const chosen = String(arg('phases', Object.keys(all).join(','))).split(',');
  const phases = Object.fromEntries(Object.entries(all).filter(([name]) => chosen.includes(name)));
  const run = async (fn, n) => {
    let next = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < n) {
          next++;
          const body = await fn();
          if (!body || body.id !== 'mut_0000000000000001') throw new Error('wrong answer');
        }
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    return { cpuUs: (cpu.user + cpu.system) / n, wallMs: performance.now() - t0 };
  };

  for (const n of sizes) {
    for (const fn of Object.values(phases)) await run(fn, Math.min(n, 2000)); // warm-up
    const best = {};
    for (let r = 0; r < rounds; r++) {
      for (const [name, fn] of Object.entries(phases)) {
        const m = await run(fn, n);
        if (!best[name] || m.cpuUs < best[name].cpuUs) best[name] = m;
      }
    }
    const base = best.bare?.cpuUs;
    for (const [name, m] of Object.entries(best)) {
      const times = base ? ` (${(m.cpuUs / base).toFixed(2)}× bare)` : '';
      console.log(`n=${n} ${name.padEnd(13)} ${m.cpuUs.toFixed(1).padStart(7)} µs CPU/request${times}  wall ${m.wallMs.toFixed(0)} ms`);
    }
    if (!base || !best.client) continue;
    const ratio = best.client.cpuUs / base;
    const checked = best['client+check'] ? `; with the answer check ${best['client+check'].cpuUs.toFixed(0)} µs` : '';
    console.log(
      `figure: ${JSON.stringify({
        measure: `client CPU per request, ${n} requests, concurrency 8 (least of ${rounds})`,
        result: `${best.client.cpuUs.toFixed(0)} µs (${ratio.toFixed(2)}×)${checked}`,
        baseline: `${base.toFixed(0)} µs bare keep-alive loop`,
        target: '<= 1.5×',
        met: ratio <= 1.5,
      })}`,
    );
  }
  agent.destroy();
  const { closeAllPools } = await import('../dist/client/http.js');
  await closeAllPools();
  child.disconnect();
}
