#!/usr/bin/env node
// The sandbox at scale (issue 10), each figure next to a baseline measured in
// the same run, so the load of this shared machine hits both alike:
//
//   stored reads   every row of a 100k-row world, limit=500, over loopback,
//                  vs the same walk over rows without their stored JSON (the
//                  per-row parse path of before) and vs a trivial Hono route
//                  sending a 500-row page of the same shape (the stack's ceiling)
//   depth          page 1,000 vs page 1 (limit=100, keyset)
//   live depth     page 30 vs page 1 of a 20k-campaign account (limit=500)
//   load           autocannon from this process (the server is a child):
//                  50 connections of mixed stored reads, live reads and writes,
//                  vs the same connections on a trivial route; RSS sampled
//   first start    `adops sandbox serve` on a new data file, vs `node -e 0`
//
// Loopback only, bounded in time (~2 min). Needs `npm run build`.
//   node bench/sandbox-scale.js [--rows 100000] [--live 20000] [--duration 20] [--write]
// --write puts the figures in docs/performance.md between the "sandbox-scale" markers.
// Each figure is also printed as a `figure:` JSON line for bench/run-all.js.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { scratchDir } from './lib/scratch-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const num = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const ROWS = num('rows', 100_000);
const LIVE = num('live', 20_000);
const DURATION = num('duration', 20);
const WRITE = args.includes('--write');

if (!existsSync(join(ROOT, 'dist', 'sandbox', 'index.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const loadStart = loadavg()[0].toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const figures = [];
/** One line of the report: a figure, its baseline from this run, and the target it answers. */
function figure(measure, result, baseline, target, met) {
  const f = { measure, result, baseline, target, met };
  figures.push(f);
  console.log(`figure: ${JSON.stringify(f)}`);
}

function startServer() {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'lib', 'sandbox-server.js'), '--stored', String(ROWS), '--live', String(LIVE)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
    child.stdout.once('data', (d) => resolve({ child, ...JSON.parse(String(d)) }));
  });
}

const rssMiB = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function main() {
  const server = await startServer();
  const auth = { authorization: `Bearer ${server.key}` };
  const getJson = async (url) => {
    const res = await fetch(url, { headers: auth });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  /** Medians of two URLs timed alternately, so the machine's load hits both alike. */
  const timedPair = async (a, b, times) => {
    const [sa, sb] = [[], []];
    for (let i = 0; i < times; i++) {
      for (const [url, samples] of [
        [a, sa],
        [b, sb],
      ]) {
        const t = performance.now();
        await getJson(url);
        samples.push(performance.now() - t);
      }
    }
    return [median(sa), median(sb)];
  };
  // The walk measures the server and the wire: the client takes each page's bytes and its
  // nextCursor from the tail, without parsing the rows (the same client for every baseline).
  // `count` parses the first round's pages to check that every row arrives once.
  const pageText = async (url) => {
    const res = await fetch(url, { headers: auth });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    return res.text();
  };
  const cursorOf = (text) => {
    const at = text.lastIndexOf(',"nextCursor":"');
    return at < 0 ? undefined : text.slice(at + 15, text.length - 2);
  };
  /** Rows per second reading every page of `first` (following nextCursor). */
  const walk = async (first, count) => {
    const t = performance.now();
    let pages = 0;
    let rows = 0;
    let cursor;
    do {
      const text = await pageText(cursor ? `${first}&cursor=${encodeURIComponent(cursor)}` : first);
      if (count) rows += JSON.parse(text).data.length;
      pages += 1;
      cursor = cursorOf(text);
    } while (cursor);
    return { rows, perSecond: (pages * 500) / ((performance.now() - t) / 1000) };
  };
  const trivialPages = async (pages) => {
    const t = performance.now();
    for (let i = 0; i < pages; i++) cursorOf(await pageText(`${server.trivialUrl}/page`));
    return (pages * 500) / ((performance.now() - t) / 1000);
  };

  try {
    // Stored reads: three rounds, interleaved; the best of each (noise only slows a round down).
    const stored = `${server.url}/observe/campaigns?advertiserId=acc_stored&limit=500`;
    const old = `${server.url}/observe/campaigns?advertiserId=acc_old&limit=500`;
    const best = { stored: 0, old: 0, trivial: 0 };
    for (let round = 0; round < 3; round++) {
      const s = await walk(stored, round === 0);
      if (round === 0 && s.rows !== ROWS) throw new Error(`stored walk read ${s.rows} rows, not ${ROWS}`);
      best.stored = Math.max(best.stored, s.perSecond);
      best.old = Math.max(best.old, (await walk(old, false)).perSecond);
      best.trivial = Math.max(best.trivial, await trivialPages(ROWS / 500));
    }
    const k = (n) => `${Math.round(n / 1000)}k rows/s`;
    figure(
      `Stored reads, ${ROWS / 1000}k rows, limit=500, over loopback`,
      k(best.stored),
      `${k(best.old)} without stored JSON (per-row parse, as before); ${k(best.trivial)} trivial Hono route, same bytes`,
      '>= 100k rows/s',
      best.stored >= 100_000,
    );

    // Depth: page 1 vs page 1,000 at limit 100.
    if (ROWS < 100_000 || LIVE < 15_000) throw new Error('--rows must be at least 100000 and --live 15000: the depth figures read page 1,000 and page 30');
    let cursor;
    for (let i = 1; i < 1000; i++)
      cursor = (await getJson(`${server.url}/observe/campaigns?advertiserId=acc_stored&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`))
        .nextCursor;
    const [page1, page1000] = await timedPair(
      `${server.url}/observe/campaigns?advertiserId=acc_stored&limit=100`,
      `${server.url}/observe/campaigns?advertiserId=acc_stored&limit=100&cursor=${encodeURIComponent(cursor)}`,
      40,
    );
    figure(
      'Stored page 1,000 (limit=100), median of 40, interleaved with page 1',
      `${page1000.toFixed(2)} ms`,
      `page 1: ${page1.toFixed(2)} ms`,
      'as fast as page 1',
      page1000 <= page1 * 1.25,
    );

    // Live depth: page 1 vs page 30 of a 20k-campaign account (limit 500).
    const live = `${server.url}/observe/acc_live/campaigns?limit=500`;
    cursor = undefined;
    for (let i = 1; i < 30; i++) cursor = (await getJson(`${live}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).nextCursor;
    const live30 = `${live}&cursor=${encodeURIComponent(cursor)}`;
    const [liveFirst, liveDeep] = await timedPair(live, live30, 20);
    figure(
      `Live page 30 of ${LIVE / 1000}k campaigns (limit=500), median of 20, interleaved with page 1`,
      `${liveDeep.toFixed(1)} ms`,
      `page 1: ${liveFirst.toFixed(1)} ms`,
      'no slower than page 1',
      liveDeep <= liveFirst * 1.25,
    );

    // Load: 50 connections for DURATION s, from this process; the server is the child.
    const body = (action) => JSON.stringify({ advertiserId: 'acc_live', target: { type: 'campaign', id: '12000001' }, action });
    const mixed = [
      { method: 'GET', path: '/observe/campaigns?advertiserId=acc_stored&limit=100', headers: auth },
      { method: 'GET', path: '/observe/acc_live/campaigns?limit=100', headers: auth },
      { method: 'GET', path: '/observe/campaigns?advertiserId=acc_stored&limit=100&status=PAUSED', headers: auth },
      { method: 'POST', path: '/mutations', headers: { ...auth, 'content-type': 'application/json' }, body: body('pause') },
      { method: 'GET', path: '/observe/acc_live/campaigns/12000002', headers: auth },
      { method: 'POST', path: '/mutations', headers: { ...auth, 'content-type': 'application/json' }, body: body('activate') },
    ];
    const rss = [rssMiB(server.pid)];
    const sampler = setInterval(() => rss.push(rssMiB(server.pid)), 1000);
    const load = await autocannon({ url: server.url, connections: 50, duration: DURATION, requests: mixed });
    clearInterval(sampler);
    rss.push(rssMiB(server.pid));
    const ceiling = await autocannon({ url: `${server.trivialUrl}/tiny`, connections: 50, duration: DURATION });
    const errors = load.errors + load.timeouts + load.non2xx;
    // Flat: the second half of the run grows no more than 10% over the first half's peak.
    const half = rss.slice(0, Math.ceil(rss.length / 2));
    const flat = Math.max(...rss) <= Math.max(...half) * 1.1;
    figure(
      `Mixed load, 50 connections, ${DURATION} s (stored, live, writes)`,
      `${Math.round(load.requests.average)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, ${errors} errors`,
      `trivial route: ${Math.round(ceiling.requests.average)} req/s, p50 ${ceiling.latency.p50} ms, p99 ${ceiling.latency.p99} ms`,
      'zero errors',
      errors === 0,
    );
    figure(
      'Server RSS during the load (sampled each second)',
      `${rss[0].toFixed(0)} → ${Math.max(...rss).toFixed(0)} MiB peak → ${rss[rss.length - 1].toFixed(0)} MiB`,
      `first half peak ${Math.max(...half).toFixed(0)} MiB`,
      'flat',
      flat,
    );
  } finally {
    server.child.kill('SIGTERM');
  }

  // First start of `adops sandbox serve` on a new data file (demo world: generate, load, ingest) vs bare node.
  const bin = join(ROOT, 'bin', 'adops.js');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ADOPS_CONFIG_DIR: scratchDir('scale') };
  const firstStart = (data) =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '--data', data], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d) => {
        if (/listening on /.test(String(d))) {
          resolve(performance.now() - t);
          child.kill('SIGTERM');
        }
      });
      child.once('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
    });
  const starts = [];
  const nodes = [];
  for (let i = 0; i < 5; i++) {
    const dir = scratchDir('data');
    starts.push(await firstStart(join(dir, 'sandbox.db')));
    rmSync(dir, { recursive: true, force: true });
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env });
    nodes.push(performance.now() - t);
  }
  figure(
    'First start of `adops sandbox serve` (new data file), median of 5',
    `${median(starts).toFixed(0)} ms`,
    `node -e 0: ${median(nodes).toFixed(0)} ms`,
    '< ~1 s',
    median(starts) < 1000,
  );
}

await main();

const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} by bench/sandbox-scale.js (part of \`npm run bench\`) on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.versions.node}, load average ${loadStart} at the start and ${loadavg()[0].toFixed(1)} at the end (other work on this machine); baselines from the same run:`,
  '',
  '| Measure | Result | Baseline (same run) | Target | Met |',
  '| --- | --- | --- | --- | :-: |',
  ...figures.map((f) => `| ${f.measure} | ${f.result} | ${f.baseline} | ${f.target} | ${f.met ? 'yes' : 'NO'} |`),
];
console.log(`\n${lines.join('\n')}`);
if (WRITE) {
  const file = join(ROOT, 'docs', 'performance.md');
  const begin = '<!-- sandbox-scale:begin (written by `node bench/sandbox-scale.js --write`) -->';
  const end = '<!-- sandbox-scale:end -->';
  let doc = readFileSync(file, 'utf8');
  const section = `${begin}\n${lines.join('\n')}\n${end}`;
  if (!doc.includes(begin)) throw new Error(`docs/performance.md has no ${begin} marker`);
  doc = doc.replace(new RegExp(`${begin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), section);
  writeFileSync(file, doc);
  console.log(`\nwritten to ${file}`);
}
if (figures.some((f) => !f.met)) process.exitCode = 1;
