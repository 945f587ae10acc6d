#!/usr/bin/env node
// `adops mutations apply FILE --concurrency 8` (issue 27) against a bare
// keep-alive loop (bench/lib/bare-mutations.js) sending the same POST
// /mutations bodies with Idempotency-Keys, 8 in flight. Each side runs against
// its own fresh sandbox child (built code, in-memory store), both timed as
// whole processes (start to exit), ROUNDS rounds with the order alternating.
// Then the peak RSS of a real run (not --dry-run) of 10× the rows against the
// ROWS-row runs. Prints a Markdown table and `figure:` lines; `--write` puts
// the table in docs/performance.md between the "bulk-apply" markers.
// Usage: node bench/apply.js [--rows 2000] [--mem-rows 20000] [--rounds 2] [--write]   (needs `npm run build`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PEAK_RSS_ARGS, peakRssKib, renameRows } from './lib/peak-rss.js';
import { DEMO_ADVERTISER, startSandboxChild } from './lib/sandbox-child.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'adops.js');
const BARE = join(ROOT, 'bench', 'lib', 'bare-mutations.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const ROWS = opt('--rows', 2000);
const MEM_ROWS = opt('--mem-rows', ROWS * 10);
const ROUNDS = opt('--rounds', 2);
const CONCURRENCY = 8;
const RATE_TARGET = 0.8;
const MEM_TARGET = 1.25;

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
    const r = spawnSync(process.execPath, argvOf(sandbox), { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${argvOf(sandbox).slice(-4).join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
    return { ms, stdout: String(r.stdout), rssKib: peakRssKib(r.stderr) };
  } finally {
    await sandbox.stop();
  }
}

const adops = (file) => () => [...PEAK_RSS_ARGS, BIN, 'mutations', 'apply', file, '--concurrency', String(CONCURRENCY), '--output', 'ndjson'];
const bare = (file) => (sandbox) => [BARE, sandbox.url, file, String(CONCURRENCY)];

try {
  const csv = csvOf(ROWS);
  const bodies = bodiesOf(ROWS);
  const runs = { adops: [], bare: [] };
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 ? ['bare', 'adops'] : ['adops', 'bare'];
    for (const s of order) {
      rmSync(`${csv}.adops-journal.ndjson`, { force: true }); // each run sends every row
      const r = await once(s === 'adops' ? adops(csv) : bare(bodies));
      if (s === 'bare' && JSON.parse(r.stdout).ok !== ROWS) throw new Error(`the bare loop had refusals: ${r.stdout}`);
      if (s === 'adops' && r.stdout.trim().split('\n').length !== ROWS) throw new Error('adops did not report every row');
      runs[s].push(r);
    }
  }
  const best = (xs) => Math.min(...xs.map((x) => x.ms));
  const rate = (ms) => ROWS / (ms / 1000);
  const ratios = runs.adops.map((a, i) => runs.bare[i].ms / a.ms);
  const ratio = best(runs.bare) / best(runs.adops);

  const memCsv = csvOf(MEM_ROWS);
  const big = await once(adops(memCsv));
  const smallKib = Math.max(...runs.adops.map((r) => r.rssKib));
  const memRatio = big.rssKib / smallKib;

  const table = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by bench/apply.js, Node ${process.version}, ${cpus().length} cores (shared; load average ${loadavg()[0].toFixed(1)} at the end); each side against its own fresh sandbox child, timed as a whole process (start to exit), best of ${ROUNDS}:`,
    '',
    '| Case | Time | Rate | Peak RSS |',
    '| --- | --- | --- | --- |',
    `| \`adops mutations apply\`, ${ROWS.toLocaleString('en')} rows, \`--concurrency ${CONCURRENCY}\` | ${(best(runs.adops) / 1000).toFixed(2)} s | ${rate(best(runs.adops)).toFixed(0)} rows/s | ${(smallKib / 1024).toFixed(0)} MiB |`,
    `| bare keep-alive loop, same bodies and keys, ${CONCURRENCY} in flight | ${(best(runs.bare) / 1000).toFixed(2)} s | ${rate(best(runs.bare)).toFixed(0)} rows/s | |`,
    `| \`adops mutations apply\`, ${MEM_ROWS.toLocaleString('en')} rows (real run) | ${(big.ms / 1000).toFixed(2)} s | ${(MEM_ROWS / (big.ms / 1000)).toFixed(0)} rows/s | ${(big.rssKib / 1024).toFixed(0)} MiB |`,
    '',
    `Rate ratio ${ratio.toFixed(2)}× (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}); peak memory ${MEM_ROWS.toLocaleString('en')} against ${ROWS.toLocaleString('en')} rows ${memRatio.toFixed(2)}×.`,
  ].join('\n');
  console.log(table);
  const figure = (f) => console.log(`figure: ${JSON.stringify(f)}`);
  figure({
    measure: `mutations apply, ${ROWS} rows, concurrency ${CONCURRENCY}`,
    result: `${rate(best(runs.adops)).toFixed(0)} rows/s (${ratio.toFixed(2)}×)`,
    baseline: `${rate(best(runs.bare)).toFixed(0)} rows/s bare keep-alive loop`,
    target: `>= ${RATE_TARGET}×`,
    met: ratio >= RATE_TARGET,
  });
  figure({
    measure: `mutations apply peak RSS, ${MEM_ROWS} rows (real run)`,
    result: `${(big.rssKib / 1024).toFixed(0)} MiB (${memRatio.toFixed(2)}×)`,
    baseline: `${(smallKib / 1024).toFixed(0)} MiB at ${ROWS} rows`,
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
