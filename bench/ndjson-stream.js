#!/usr/bin/env node
// `adops observe campaigns --all --output ndjson` over N stored rows (#16),
// next to a bare fetch loop over the same pages, in the same run:
//   time    N rows (20,000 by default), the service's default page size (the
//           command as a script writes it): adops against a
//           `node -e` script that GETs each page with node:http, follows
//           nextCursor, parses it and writes its rows as NDJSON to stdout
//           (the least any client does). R interleaved pairs (≥ 11), wall
//           and CPU of each child (bench/lib/timed-run.js), medians.
//   memory  adops's peak RSS streaming N rows and 10 × N rows (a second
//           world): flat means the 10× run stays within 1.1× the memory
//           (#27); the bare loop's own peaks beside it (V8 grows its young
//           generation over a long run: src/client/pages-memory.ts).
//   time    also at 10 × N: 3 interleaved pairs, medians (the long walk).
// The bench world is bench/lib/sandbox-server.js (stored rows written straight
// into SQLite), one server per size, each a child process.
//   node bench/ndjson-stream.js [--rows 20000] [--runs 11]   (needs `npm run build`)
// Each figure is also printed as a `figure:` JSON line for bench/run-all.js.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PEAK_RSS_ARGS, peakRssKib } from './lib/peak-rss.js';
import { cleanEnv, median, timedRun } from './lib/timed-run.js';
import { scratchDir } from './lib/scratch-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.adops);
const args = process.argv.slice(2);
const num = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const ROWS = num('rows', 20_000);
const RUNS = Math.max(11, num('runs', 11));

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js')) || !existsSync(join(ROOT, 'dist', 'sandbox', 'index.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

function startServer(rows) {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'lib', 'sandbox-server.js'), '--stored', String(rows), '--live', '0'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
    child.stdout.once('data', (d) => resolve({ child, ...JSON.parse(String(d)) }));
  });
}

// The floor: the same pages, fetched one after another on a keep-alive agent, rows written as NDJSON.
const FLOOR = `const http = require('node:http');
const agent = new http.Agent({ keepAlive: true });
const get = (url) => new Promise((resolve, reject) => http.get(url, { agent, headers: { authorization: 'Bearer ' + process.env.K, accept: 'application/json' } }, (r) => {
  const chunks = []; r.on('data', (c) => chunks.push(c)); r.on('end', () => resolve(JSON.parse(Buffer.concat(chunks)))); r.on('error', reject);
}).on('error', reject));
(async () => {
  let cursor;
  do {
    const page = await get(process.env.U + '/observe/campaigns?advertiserId=acc_stored' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''));
    const text = page.data.map((row) => JSON.stringify(row) + '\\n').join('');
    if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
    cursor = page.nextCursor;
  } while (cursor);
  agent.destroy();
})();`;

const adopsArgs = ['observe', 'campaigns', '--advertiser', 'acc_stored', '--all', '--output', 'ndjson'];
const lines = (stdout) => String(stdout).split('\n').filter(Boolean).length;
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');

async function withServer(rows, fn) {
  const server = await startServer(rows);
  try {
    const config = scratchDir('ndjson');
    return await fn(cleanEnv({ ADOPS_CONFIG_DIR: config, ADOPS_BASE_URL: server.url, ADOPS_API_KEY: server.key, U: server.url, K: server.key }));
  } finally {
    server.child.kill('SIGTERM');
  }
}

/** Peak RSS (KiB) of one run streaming every row (adops, or the bare loop); checks that every row came. */
function peak(env, rows, floor = false) {
  const r = timedRun([process.execPath, ...PEAK_RSS_ARGS, ...(floor ? ['-e', FLOOR] : [BIN, ...adopsArgs])], env);
  if (r.status !== 0 || lines(r.stdout) !== rows)
    throw new Error(`${floor ? 'bare loop' : 'adops'} (peak RSS run) ${r.status}, ${lines(r.stdout)} rows: ${r.stderr}`);
  return peakRssKib(r.stderr);
}
const peaks = (env, rows) => ({
  adops: median(Array.from({ length: 3 }, () => peak(env, rows))),
  floor: median(Array.from({ length: 3 }, () => peak(env, rows, true))),
});

const timing = await withServer(ROWS, (env) => {
  const cases = { floor: [process.execPath, '-e', FLOOR], adops: [process.execPath, BIN, ...adopsArgs] };
  const s = { floor: { wall: [], cpu: [] }, adops: { wall: [], cpu: [] } };
  for (const argv of Object.values(cases)) timedRun(argv, env); // warm the caches
  for (let i = 0; i < RUNS; i++) {
    for (const [name, argv] of Object.entries(cases)) {
      const r = timedRun(argv, env);
      if (r.status !== 0 || lines(r.stdout) !== ROWS) throw new Error(`${name}: exit ${r.status}, ${lines(r.stdout)} rows of ${ROWS}: ${r.stderr}`);
      s[name].wall.push(r.wallMs);
      s[name].cpu.push(r.cpuMs);
    }
  }
  return { s, peak: peaks(env, ROWS) };
});
const big = await withServer(ROWS * 10, (env) => {
  const wall = { floor: [], adops: [] };
  for (let i = 0; i < 3; i++) {
    for (const [name, argv] of [
      ['floor', [process.execPath, '-e', FLOOR]],
      ['adops', [process.execPath, BIN, ...adopsArgs]],
    ]) {
      const r = timedRun(argv, env);
      if (r.status !== 0 || lines(r.stdout) !== ROWS * 10) throw new Error(`${name} at ${ROWS * 10}: exit ${r.status}: ${r.stderr}`);
      wall[name].push(r.wallMs);
    }
  }
  return { peak: peaks(env, ROWS * 10), wall: { floor: median(wall.floor), adops: median(wall.adops) } };
});
const loadAfter = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');

const m = (name, k) => median(timing.s[name][k]);
const wallX = m('adops', 'wall') / m('floor', 'wall');
const cpuX = m('adops', 'cpu') / m('floor', 'cpu');
const memX = big.peak.adops / timing.peak.adops;
const floorMemX = big.peak.floor / timing.peak.floor;
const bigWallX = big.wall.adops / big.wall.floor;
const mib = (kib) => (kib / 1024).toFixed(1);
const out = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.versions.node}, ${RUNS} interleaved pairs, medians; load average (1, 5, 15 min) ${loadBefore} before, ${loadAfter} after:`,
  '',
  `| ${ROWS.toLocaleString('en-US')} stored rows, the service's default page, NDJSON to a pipe | wall ms | CPU ms | peak RSS MiB |`,
  '| --- | ---: | ---: | ---: |',
  `| bare fetch loop (node:http, \`node -e\`) | ${m('floor', 'wall').toFixed(0)} | ${m('floor', 'cpu').toFixed(0)} | ${mib(timing.peak.floor)} |`,
  `| \`adops ${adopsArgs.join(' ')}\` | ${m('adops', 'wall').toFixed(0)} | ${m('adops', 'cpu').toFixed(0)} | ${mib(timing.peak.adops)} |`,
  `| bare fetch loop over ${(ROWS * 10).toLocaleString('en-US')} rows | ${big.wall.floor.toFixed(0)} | | ${mib(big.peak.floor)} |`,
  `| adops over ${(ROWS * 10).toLocaleString('en-US')} rows | ${big.wall.adops.toFixed(0)} | | ${mib(big.peak.adops)} |`,
  '',
  `adops × the bare loop: ${wallX.toFixed(2)} wall, ${cpuX.toFixed(2)} CPU at ${ROWS} rows, ${bigWallX.toFixed(2)} wall at ${ROWS * 10} (target ≤ 1.2); memory at 10 × the rows: ${memX.toFixed(2)}× (target ≤ 1.1; the bare loop ${floorMemX.toFixed(2)}×).`,
];
console.log(out.join('\n'));
const figure = (f) => console.log(`figure: ${JSON.stringify(f)}`);
figure({
  measure: `ndjson --all over ${ROWS} stored rows × a bare fetch loop (wall, CPU)`,
  result: `${wallX.toFixed(2)}×, ${cpuX.toFixed(2)}×`,
  baseline: `bare loop ${m('floor', 'wall').toFixed(0)} ms wall, ${m('floor', 'cpu').toFixed(0)} ms CPU`,
  target: '≤ 1.2×',
  met: wallX <= 1.2 && cpuX <= 1.2,
});
figure({
  measure: `ndjson --all over ${ROWS * 10} stored rows × a bare fetch loop (wall)`,
  result: `${bigWallX.toFixed(2)}×`,
  baseline: `bare loop ${big.wall.floor.toFixed(0)} ms wall`,
  target: '≤ 1.2×',
  met: bigWallX <= 1.2,
});
figure({
  measure: `ndjson --all peak RSS at ${ROWS * 10} rows × at ${ROWS}`,
  result: `${memX.toFixed(2)}× (${mib(timing.peak.adops)} → ${mib(big.peak.adops)} MiB)`,
  baseline: `bare loop ${floorMemX.toFixed(2)}× (${mib(timing.peak.floor)} → ${mib(big.peak.floor)} MiB)`,
  target: '≤ 1.1×',
  met: memX <= 1.1,
});
if (!(wallX <= 1.2 && cpuX <= 1.2 && bigWallX <= 1.2 && memX <= 1.1)) process.exitCode = 1;
