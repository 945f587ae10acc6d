#!/usr/bin/env node
// `adops mutations apply FILE --concurrency 8` (issues 27, 37) against a bare
// keep-alive loop (bench/lib/bare-mutations.js) sending the same POST
// /mutations bodies with Idempotency-Keys, 8 in flight, at ROWS rows and at
// BIG_ROWS (10x). Each side runs against its own fresh sandbox child (built
// code, in-memory store), timed as a whole process (start to exit), ROUNDS
// rounds with the order alternating; each child also reports its own CPU time
// (user + system, bench/lib/child-usage.js): the client's CPU per row beside
// the bare loop's, since every millisecond of it is taken from the sandbox on
// a machine the two share. Each round runs both sides back to back, and each
// figure is the median of the rounds' own ratios (as bench/sandbox-mixed.js
// does): each side's best round taken apart lets noise that hit one side's
// rounds only read as a difference between the two. The peak RSS of the
// BIG_ROWS runs (real runs, not --dry-run) is set against the ROWS-row runs.
// Prints a Markdown table and `figure:` lines; `--write` puts the table in
// docs/performance.md between the "bulk-apply" markers.
// Usage: node bench/apply.js [--rows 2000] [--big-rows 20000] [--rounds 3] [--write]   (needs `npm run build`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childUsage, USAGE_ARGS } from './lib/child-usage.js';
import { renameRows } from './lib/peak-rss.js';
import { DEMO_ADVERTISER, startSandboxChild } from './lib/sandbox-child.js';
import { median } from './lib/timed-run.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'adops.js');
const BARE = join(ROOT, 'bench', 'lib', 'bare-mutations.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const ROWS = opt('--rows', 2000);
const BIG_ROWS = opt('--big-rows', opt('--mem-rows', ROWS * 10));
const ROUNDS = opt('--rounds', 3);
const CONCURRENCY = 8;
const RATE_TARGET = 0.8;
const MEM_TARGET = 1.25;
const CPU_TARGET = 1.5;

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'adops-bench-bulk-apply-'));
const csvOf = (n) => {
  const file = join(work, `rows-${n}.csv`);
  writeFileSync(file, renameRows(n, DEMO_ADVERTISER));
  return file;
};
/** The very bodies `adops` sends for renameRows's rows (bodyOf in src/contract/mutation-actions.ts). */
const bodiesOf = (n) => {
  const file = join(work, `bodies-${n}.ndjson`);
  const lines = [];
  for (let i = 0; i < n; i++)
    lines.push(
      JSON.stringify({ advertiserId: DEMO_ADVERTISER, target: { type: 'campaign', id: String(1000 + (i % 50)) }, action: 'rename', name: `Spring, week ${i}` }),
    );
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
};

let side = 0;
/** One side: a fresh sandbox, the command timed as a whole process, the sandbox stopped. */
async function once(argvOf) {
  const config = join(work, `config-${side++}`);
  const sandbox = await startSandboxChild(BIN, config);
  try {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, ADOPS_CONFIG_DIR: config, ADOPS_API_KEY: sandbox.key };
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [...USAGE_ARGS, ...argvOf(sandbox)], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${argvOf(sandbox).slice(-4).join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
    return { ms, stdout: String(r.stdout), ...childUsage(r.stderr) };
  } finally {
    await sandbox.stop();
  }
}

const adops = (file) => () => [BIN, 'mutations', 'apply', file, '--concurrency', String(CONCURRENCY), '--output', 'ndjson'];
const bare = (file) => (sandbox) => [BARE, sandbox.url, file, String(CONCURRENCY)];

/** ROUNDS rounds of both sides at `rows` rows, the order alternating. */
async function compare(rows) {
  const csv = csvOf(rows);
  const bodies = bodiesOf(rows);
  const runs = { adops: [], bare: [] };
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 ? ['bare', 'adops'] : ['adops', 'bare'];
    for (const s of order) {
      rmSync(`${csv}.adops-journal.ndjson`, { force: true }); // each run sends every row
      const r = await once(s === 'adops' ? adops(csv) : bare(bodies));
      if (s === 'bare' && JSON.parse(r.stdout).ok !== rows) throw new Error(`the bare loop had refusals: ${r.stdout}`);
      if (s === 'adops' && r.stdout.trim().split('\n').length !== rows) throw new Error('adops did not report every row');
      if (!(r.cpuMs > 0)) throw new Error(`${s} reported no CPU time`);
      runs[s].push(r);
    }
  }
  const ms = { adops: median(runs.adops.map((x) => x.ms)), bare: median(runs.bare.map((x) => x.ms)) };
  // CPU per row in µs, each side's median over the rounds.
  const cpuOf = (s) => (median(runs[s].map((x) => x.cpuMs)) * 1000) / rows;
  const cpu = { adops: cpuOf('adops'), bare: cpuOf('bare') };
  // Each round's own ratios (the two sides back to back); the figures are their medians.
  const rounds = runs.adops.map((a, i) => runs.bare[i].ms / a.ms);
  const cpuRounds = runs.adops.map((a, i) => a.cpuMs / runs.bare[i].cpuMs);
  return {
    rows,
    ms,
    cpu,
    ratio: median(rounds),
    cpuRatio: median(cpuRounds),
    rounds,
    cpuRounds,
    rssKib: Math.max(...runs.adops.map((r) => r.rssKib)),
  };
}

try {
  const small = await compare(ROWS);
  const big = await compare(BIG_ROWS);
  const memRatio = big.rssKib / small.rssKib;
  const rate = (c, side) => c.rows / (c.ms[side] / 1000);
  const n = (x) => x.toLocaleString('en');
  const rowsOf = (c) => [
    `| \`adops mutations apply\`, ${n(c.rows)} rows, \`--concurrency ${CONCURRENCY}\` (real run) | ${(c.ms.adops / 1000).toFixed(2)} s | ${rate(c, 'adops').toFixed(0)} rows/s | ${c.cpu.adops.toFixed(0)} µs | ${(c.rssKib / 1024).toFixed(0)} MiB |`,
    `| bare keep-alive loop, same bodies and keys, ${CONCURRENCY} in flight | ${(c.ms.bare / 1000).toFixed(2)} s | ${rate(c, 'bare').toFixed(0)} rows/s | ${c.cpu.bare.toFixed(0)} µs | |`,
  ];
  const table = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by bench/apply.js, Node ${process.version}, ${cpus().length} cores (shared; load average ${loadavg()[0].toFixed(1)} at the end); each side against its own fresh sandbox child, timed as a whole process (start to exit), ${ROUNDS} rounds, the two sides back to back in each; time and CPU are each side's median; CPU is the client process's own user + system time (start-up included) over the rows; the ratios are the medians of the rounds' own:`,
    '',
    '| Case | Time | Rate | CPU per row | Peak RSS |',
    '| --- | --- | --- | --- | --- |',
    ...rowsOf(small),
    ...rowsOf(big),
    '',
    ...[small, big].map(
      (c) =>
        `${n(c.rows)} rows: rate ratio ${c.ratio.toFixed(2)}× (rounds: ${c.rounds.map((r) => r.toFixed(2)).join(', ')}), client CPU per row ${c.cpuRatio.toFixed(2)}× the bare loop's (rounds: ${c.cpuRounds.map((r) => r.toFixed(2)).join(', ')}).`,
    ),
    `Peak memory ${n(BIG_ROWS)} against ${n(ROWS)} rows ${memRatio.toFixed(2)}×.`,
  ].join('\n');
  console.log(table);
  const figure = (f) => console.log(`figure: ${JSON.stringify(f)}`);
  for (const c of [small, big]) {
    figure({
      measure: `mutations apply, ${c.rows} rows, concurrency ${CONCURRENCY}`,
      result: `${rate(c, 'adops').toFixed(0)} rows/s (${c.ratio.toFixed(2)}×)`,
      baseline: `${rate(c, 'bare').toFixed(0)} rows/s bare keep-alive loop`,
      target: `>= ${RATE_TARGET}×`,
      met: c.ratio >= RATE_TARGET,
    });
    figure({
      measure: `mutations apply client CPU per row, ${c.rows} rows`,
      result: `${c.cpu.adops.toFixed(0)} µs/row (${c.cpuRatio.toFixed(2)}×)`,
      baseline: `${c.cpu.bare.toFixed(0)} µs/row bare keep-alive loop`,
      target: `<= ${CPU_TARGET}×`,
      met: c.cpuRatio <= CPU_TARGET,
    });
  }
  figure({
    measure: `mutations apply peak RSS, ${BIG_ROWS} rows (real run)`,
    result: `${(big.rssKib / 1024).toFixed(0)} MiB (${memRatio.toFixed(2)}×)`,
    baseline: `${(small.rssKib / 1024).toFixed(0)} MiB at ${ROWS} rows`,
    target: `<= ${MEM_TARGET}×`,
    met: memRatio <= MEM_TARGET,
  });
  if (args.includes('--write')) {
    const doc = join(ROOT, 'docs', 'performance.md');
    const text = readFileSync(doc, 'utf8');
    const re = /(<!-- bulk-apply:start -->\n)[\s\S]*?(\n<!-- bulk-apply:end -->)/;
    if (!re.test(text)) throw new Error('docs/performance.md has no bulk-apply markers');
    writeFileSync(
      doc,
      text.replace(re, (_, a, b) => `${a}${table}${b}`),
    );
  }
} catch (err) {
  console.error(String(err?.stack ?? err));
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
