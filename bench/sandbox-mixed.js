#!/usr/bin/env node
// The sandbox under a CI job's load (#27): 8 clients, each looping over a write
// (a Skill created, or its Brand patched, in turn) and then a stored read
// (`GET /observe/campaigns`, one of 4 advertisers, one of their first 8 pages,
// limit 100, varying). A Skill or Brand write leaves the sandbox's kept pages
// alone (store/page-cache.ts, #27), so after the first walk the reads are kept
// pages: what this measures is mostly the writes and the HTTP stack around both.
//   sandbox   the built sandbox (in-memory store, a world of 4 advertisers ×
//             5,000 stored campaigns written straight into SQLite), own process
//   baseline  a trivial node:http server, own process: the same read answers
//             from memory (the very bytes the sandbox sent), and one SQLite
//             INSERT (same driver, dist/sandbox/store/sqlite.js) per write
// The client (this process) runs 8 loops over one keep-alive agent of 8
// sockets. Each round runs both servers back to back, the order alternating
// (sandbox first, then trivial first, …); the figure is the median of the
// rounds' own ratios. The best round of each side, taken apart, let a stretch
// of noise that hit one side's rounds only read as a win (1.78× on a machine
// where it is ~0.86×: the trivial side's load client took 141–200 µs of CPU a
// request against 71–138, #37 session 11).
//   node bench/sandbox-mixed.js [--seconds 6] [--rounds 3]   (needs `npm run build`)
// Prints `figure:` JSON lines for bench/run-all.js; exit 1 when under target.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillStored } from './lib/stored-rows.js';
import { scratchDir } from './lib/scratch-dir.js';
import { median } from './lib/timed-run.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const num = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const KEY = 'acr_bench_full_0001';
const ADVERTISERS = ['acc_m1', 'acc_m2', 'acc_m3', 'acc_m4'];
const ROWS = 5_000;
const PAGES = 8;
const CLIENTS = 8;
const TARGET = 0.8;

// ---- the two servers (this file again, in a child process) ----

async function serveSandbox() {
  const { startSandbox } = await import('../dist/sandbox/index.js');
  const { storedRowJson } = await import('../dist/sandbox/ingest/stored-reads.js');
  const advertiser = (id) => ({ id, organization: 'org_bench', provider: 'provider_a', name: id, currency: 'USD', connection: 'connected' });
  const world = {
    organizations: [{ id: 'org_bench', name: 'Bench', subscription: true }],
    members: [{ id: 'mem_bench', organization: 'org_bench', email: 'bench@bench.example', role: 'owner', state: 'active' }],
    apiKeys: [{ label: 'bench', key: KEY, member: 'mem_bench', permissions: 'all' }],
    advertisers: ADVERTISERS.map(advertiser),
  };
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', world, quiet: true });
  const { db } = sandbox.services;
  // Rows of one advertiser after another's, as one ingestion run each (ids apart).
  ADVERTISERS.forEach((adv, k) => fillStored(db, storedRowJson, { org: 'org_bench', adv, n: ROWS, idBase: k * ROWS }));
  // No ANALYZE: the sandbox never gathers statistics, and with them SQLite plans these pages on the
  // rowid (a walk from the newest row down to the advertiser's), which is not what a CI job meets.
  const stop = () => sandbox.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop).resume();
  console.log(JSON.stringify({ url: sandbox.url, pid: process.pid }));
}

async function serveTrivial(pagesFile) {
  const { openSqlite } = await import('../dist/sandbox/store/sqlite.js');
  const db = openSqlite(':memory:');
  db.exec('CREATE TABLE writes (seq INTEGER PRIMARY KEY, path TEXT NOT NULL, body TEXT NOT NULL, at INTEGER NOT NULL)');
  const write = db.prepare('INSERT INTO writes (path, body, at) VALUES (?, ?, ?)');
  const pages = new Map(Object.entries(JSON.parse(readFileSync(pagesFile, 'utf8'))).map(([k, v]) => [k, Buffer.from(v)]));
  let revision = 1;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const body = pages.get(req.url);
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'content-length': body ? body.length : 2 });
      return res.end(body ?? '{}');
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      write.run(req.url, text, Date.now());
      const answer = JSON.stringify({ ...JSON.parse(text), revision: ++revision });
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('SIGTERM', () => process.exit(0));
  process.stdin.on('end', () => process.exit(0)).resume();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}`, pid: process.pid }));
}

// ---- the client ----

function startChild(mode, extra = []) {
  // BENCH_SERVER_NODE_ARGS: Node options for the servers (a profile: `--cpu-prof --cpu-prof-dir=DIR`).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(import.meta.url), `--${mode}`, ...extra], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited ${code}`)));
    child.stdout.once('data', (d) => resolve({ child, ...JSON.parse(String(d)) }));
  });
}

// One keep-alive agent per round: a socket left idle through the other server's round would be
// closed by its server (keep-alive timeout 5 s) just as this round reuses it ('socket hang up').
let agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
function send(base, method, path, body) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = { authorization: `Bearer ${KEY}`, accept: 'application/json' };
    if (text !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** The read URLs: each advertiser's first PAGES pages (their cursors as the sandbox gives them). */
async function readPaths(base) {
  const paths = [];
  for (const adv of ADVERTISERS) {
    let cursor;
    for (let p = 0; p < PAGES; p++) {
      const path = `/observe/campaigns?advertiserId=${adv}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const r = await send(base, 'GET', path);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
      paths.push([path, r.text]);
      cursor = JSON.parse(r.text).nextCursor;
    }
  }
  return paths;
}

let skillSeq = 0;
/** One client: write, then read, until `until`; per client its own Brand (patched with the revision it read). */
async function client(base, index, paths, until, counts, round) {
  const brand = `bench-${round}-${index}`;
  let r = await send(base, 'POST', '/context/brands', { slug: brand, name: `Brand ${index}` });
  if (r.status !== 201) throw new Error(`create brand: ${r.status} ${r.text}`);
  let revision = JSON.parse(r.text).revision;
  let i = index;
  while (performance.now() < until) {
    if (i % 2 === 0) {
      r = await send(base, 'POST', '/context/skills', { slug: `s-${round}-${index}-${++skillSeq}`, name: 'Pacing' });
      if (r.status !== 201) throw new Error(`create skill: ${r.status} ${r.text}`);
    } else {
      r = await send(base, 'PATCH', `/context/brands/${brand}`, { revision, name: `Brand ${index} ${i}` });
      if (r.status !== 200) throw new Error(`patch brand: ${r.status} ${r.text}`);
      revision = JSON.parse(r.text).revision;
    }
    const [path] = paths[(i * 7 + index) % paths.length];
    r = await send(base, 'GET', path);
    if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
    counts.requests += 2;
    i++;
  }
}

/** CPU seconds (user + system) a server child has used so far, from /proc (Linux; undefined elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return undefined;
  }
}

async function round(base, paths, seconds, n, pid) {
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const counts = { requests: 0 };
  const started = performance.now();
  const until = started + seconds * 1000;
  const cpuBefore = cpuSeconds(pid);
  const clientBefore = process.cpuUsage();
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(base, i, paths, until, counts, n)));
  const cpu = cpuSeconds(pid) - cpuBefore;
  const clientCpu = process.cpuUsage(clientBefore);
  return {
    rate: counts.requests / ((performance.now() - started) / 1000),
    cpuPerRequest: Number.isNaN(cpu) ? undefined : (cpu * 1e6) / counts.requests,
    clientCpuPerRequest: (clientCpu.user + clientCpu.system) / counts.requests,
  };
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'sandbox', 'index.js'))) {
    console.error('build first: npm run build');
    process.exit(2);
  }
  const seconds = num('seconds', 6);
  const rounds = num('rounds', 3);
  const loadBefore = loadavg()[0].toFixed(2);
  const sandbox = await startChild('sandbox');
  let trivial;
  try {
    const paths = await readPaths(sandbox.url);
    const file = join(scratchDir('mixed'), 'pages.json');
    writeFileSync(file, JSON.stringify(Object.fromEntries(paths)));
    trivial = await startChild('trivial', [file]);
    const best = { sandbox: 0, trivial: 0 };
    const cpu = { sandbox: [], trivial: [], client: [] };
    const ratios = [];
    for (let n = 0; n < rounds; n++) {
      const rate = {};
      const sides = [
        ['sandbox', sandbox],
        ['trivial', trivial],
      ];
      for (const [name, server] of n % 2 ? sides.reverse() : sides) {
        const r = await round(server.url, paths, seconds, n, server.pid);
        rate[name] = r.rate;
        best[name] = Math.max(best[name], r.rate);
        if (r.cpuPerRequest !== undefined) cpu[name].push(Math.round(r.cpuPerRequest));
        cpu.client.push(`${name[0]} ${Math.round(r.clientCpuPerRequest)}`);
      }
      ratios.push(rate.sandbox / rate.trivial);
    }
    const ratio = median(ratios);
    const loadAfter = loadavg()[0].toFixed(2);
    console.log(
      `8 clients × (write, stored read), ${seconds} s × ${rounds} rounds, the order alternating; load ${loadBefore} → ${loadAfter}:\n` +
        `  sandbox / trivial node:http by round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${ratio.toFixed(2)}×` +
        `\n  best rounds: sandbox ${Math.round(best.sandbox)} req/s, trivial ${Math.round(best.trivial)} req/s` +
        (cpu.sandbox.length ? `\n  server CPU per request (µs, by round): sandbox ${cpu.sandbox.join(', ')}; trivial ${cpu.trivial.join(', ')}` : '') +
        `\n  client CPU per request (µs, in run order, s/t): ${cpu.client.join(', ')}`,
    );
    console.log(
      `figure: ${JSON.stringify({
        measure: 'sandbox, 8 clients each looping write then stored read (req/s)',
        result: `${Math.round(best.sandbox)} req/s, ${ratio.toFixed(2)}× (median of ${rounds} paired rounds)`,
        baseline: `trivial node:http, one SQLite write per write: ${Math.round(best.trivial)} req/s`,
        target: `≥ ${TARGET}×`,
        met: ratio >= TARGET,
      })}`,
    );
    if (ratio < TARGET) process.exitCode = 1;
  } finally {
    agent.destroy();
    sandbox.child.kill('SIGTERM');
    trivial?.child.kill('SIGTERM');
  }
}

if (args[0] === '--sandbox') await serveSandbox();
else if (args[0] === '--trivial') await serveTrivial(args[1]);
else await main();
