#!/usr/bin/env node
// `adops assets sync DIR --concurrency 8` (issue 27) of FILES small PNGs against
// a bare keep-alive loop doing the same reserve, PUT and finalize per file, 8 in
// flight (bench/lib/bare-sync.js); then a re-run with nothing to send against
// a bare script that lists the ready Assets and hashes the files. Each first
// run gets its own fresh sandbox child; both sides timed as whole processes
// (start to exit), ROUNDS rounds with the order alternating. Each round runs
// both sides back to back; each figure is the median of the rounds' own
// ratios (as bench/sandbox-mixed.js does: each side's best round taken apart
// lets noise that hit one side only read as a difference between the two).
// Each child also reports its own CPU time (user + system,
// bench/lib/child-usage.js): the client's CPU per file beside the bare loop's,
// as the client and the sandbox share this machine's cores.
// Prints a Markdown table and `figure:` lines; `--write` puts the table in
// docs/performance.md between the "bulk-sync" markers.
// Usage: node bench/sync.js [--files 300] [--rounds 3] [--write]   (needs `npm run build`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { childUsage, USAGE_ARGS } from './lib/child-usage.js';
import { startSandboxChild } from './lib/sandbox-child.js';
import { median } from './lib/timed-run.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'adops.js');
const BARE = join(ROOT, 'bench', 'lib', 'bare-sync.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const FILES = opt('--files', 300);
const ROUNDS = opt('--rounds', 3);
const CONCURRENCY = 8;
const RATE_TARGET = 0.8;
const RERUN_TARGET = 1.5;
const CPU_TARGET = 1.5;

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

// A minimal PNG of width × 1 (as bench/upload.js): every file different bytes.
const u32 = (n) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const text = (s) => [...Buffer.from(s, 'latin1')];
function png(width) {
  const chunk = (type, data) => {
    const body = Buffer.from([...text(type), ...data]);
    return [...u32(data.length), ...body, ...u32(crc32(body))];
  };
  return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk('IHDR', [...u32(width), ...u32(1), 8, 6, 0, 0, 0]), ...chunk('IEND', [])]);
}

const work = mkdtempSync(join(tmpdir(), 'adops-bench-bulk-sync-'));
const dir = join(work, 'creatives');
mkdirSync(dir);
for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `p${String(i).padStart(4, '0')}.png`), png(i + 1));

let n = 0;
const envOf = (config, sandbox) => ({ PATH: process.env.PATH, HOME: process.env.HOME, ADOPS_CONFIG_DIR: config, ADOPS_API_KEY: sandbox.key });
function timed(argv, env) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...USAGE_ARGS, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${argv.slice(0, 4).join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
  return { ms, stdout: String(r.stdout), ...childUsage(r.stderr) };
}
const adopsSync = (config, sandbox) => timed([BIN, 'assets', 'sync', dir, '--concurrency', String(CONCURRENCY), '--output', 'ndjson'], envOf(config, sandbox));
const rowsOf = (out) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** One side on a fresh sandbox: the first sync, then (adops only) the re-run with nothing to send and the bare plan. */
async function side(which) {
  const config = join(work, `config-${n++}`);
  const sandbox = await startSandboxChild(BIN, config);
  try {
    if (which === 'bare') {
      const r = timed([BARE, 'upload', sandbox.url, dir, String(CONCURRENCY)], envOf(config, sandbox));
      if (JSON.parse(r.stdout).ok !== FILES) throw new Error(`the bare loop did not make every Asset ready: ${r.stdout}`);
      return { first: r.ms, cpu: r.cpuMs };
    }
    const first = adopsSync(config, sandbox);
    if (rowsOf(first.stdout).filter((x) => x.result === 'uploaded').length !== FILES)
      throw new Error(`adops did not upload every file: ${first.stdout.slice(0, 300)}`);
    const again = adopsSync(config, sandbox);
    if (rowsOf(again.stdout).filter((x) => x.result === 'already there' || x.result === 'already').length !== FILES)
      throw new Error(`the re-run did not find every file there: ${again.stdout.slice(0, 300)}`);
    const plan = timed([BARE, 'plan', sandbox.url, dir], envOf(config, sandbox));
    if (JSON.parse(plan.stdout).ok !== FILES) throw new Error(`the bare plan did not match every file: ${plan.stdout}`);
    return { first: first.ms, cpu: first.cpuMs, again: again.ms, againCpu: again.cpuMs, plan: plan.ms, planCpu: plan.cpuMs };
  } finally {
    await sandbox.stop();
  }
}

try {
  const runs = { adops: [], bare: [] };
  for (let i = 0; i < ROUNDS; i++) for (const s of i % 2 ? ['bare', 'adops'] : ['adops', 'bare']) runs[s].push(await side(s));
  const mid = (side, k) => median(runs[side].map((r) => r[k]));
  const up = mid('adops', 'first');
  const bare = mid('bare', 'first');
  const again = mid('adops', 'again');
  const plan = mid('adops', 'plan');
  const rate = (ms) => FILES / (ms / 1000);
  // Each round's own ratios (its two sides back to back; the re-run and the plan on one sandbox); the figures are their medians.
  const byRound = (f) => runs.adops.map((a, i) => f(a, runs.bare[i]));
  const rounds = { rate: byRound((a, b) => b.first / a.first), cpu: byRound((a, b) => a.cpu / b.cpu), rerun: byRound((a) => a.again / a.plan) };
  const ratio = median(rounds.rate);
  const rerun = median(rounds.rerun);
  // CPU per file in ms, each side's median over the rounds.
  const cpu = { adops: mid('adops', 'cpu') / FILES, bare: mid('bare', 'cpu') / FILES };
  const cpuRatio = median(rounds.cpu);
  if (!(cpu.adops > 0 && cpu.bare > 0)) throw new Error('a side reported no CPU time');
  const againCpu = mid('adops', 'againCpu');
  const planCpu = mid('adops', 'planCpu');
  const listed = (xs) => xs.map((x) => x.toFixed(2)).join(', ');
  const table = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by bench/sync.js, Node ${process.version}, ${cpus().length} cores (shared; load average ${loadavg()[0].toFixed(1)} at the end); ${FILES} PNGs of 60–1,300 bytes, each side on its own fresh sandbox child, timed as a whole process (start to exit), ${ROUNDS} rounds, the two sides back to back in each; each figure is its side's median:`,
    '',
    '| Case | Time | Rate | Client CPU |',
    '| --- | --- | --- | --- |',
    `| \`adops assets sync\`, \`--concurrency ${CONCURRENCY}\` | ${(up / 1000).toFixed(2)} s | ${rate(up).toFixed(0)} files/s | ${cpu.adops.toFixed(2)} ms per file |`,
    `| bare keep-alive loop: reserve, PUT, finalize per file, ${CONCURRENCY} in flight | ${(bare / 1000).toFixed(2)} s | ${rate(bare).toFixed(0)} files/s | ${cpu.bare.toFixed(2)} ms per file |`,
    `| \`adops assets sync\` again, nothing to send | ${again.toFixed(0)} ms | | ${againCpu.toFixed(0)} ms |`,
    `| bare script: list the ready Assets, hash the files | ${plan.toFixed(0)} ms | | ${planCpu.toFixed(0)} ms |`,
    '',
    `Rate ratio ${ratio.toFixed(2)}× (rounds: ${listed(rounds.rate)}); client CPU per file ${cpuRatio.toFixed(2)}× the bare loop's (rounds: ${listed(rounds.cpu)}); re-run ${rerun.toFixed(2)}× the bare plan (rounds: ${listed(rounds.rerun)}; CPU ${(againCpu / planCpu).toFixed(2)}×). Each ratio is the median of the rounds' own; CPU is each process's own user + system time, start-up included.`,
  ].join('\n');
  console.log(table);
  const figure = (f) => console.log(`figure: ${JSON.stringify(f)}`);
  figure({
    measure: `assets sync, ${FILES} PNGs, concurrency ${CONCURRENCY}`,
    result: `${rate(up).toFixed(0)} files/s (${ratio.toFixed(2)}×)`,
    baseline: `${rate(bare).toFixed(0)} files/s bare reserve/PUT/finalize loop`,
    target: `>= ${RATE_TARGET}×`,
    met: ratio >= RATE_TARGET,
  });
  figure({
    measure: `assets sync client CPU per file, ${FILES} PNGs`,
    result: `${cpu.adops.toFixed(2)} ms/file (${cpuRatio.toFixed(2)}×)`,
    baseline: `${cpu.bare.toFixed(2)} ms/file bare reserve/PUT/finalize loop`,
    target: `<= ${CPU_TARGET}×`,
    met: cpuRatio <= CPU_TARGET,
  });
  figure({
    measure: `assets sync re-run, nothing to send, ${FILES} files`,
    result: `${again.toFixed(0)} ms (${rerun.toFixed(2)}×)`,
    baseline: `${plan.toFixed(0)} ms list the Assets + hash the files`,
    target: `<= ${RERUN_TARGET}×`,
    met: rerun <= RERUN_TARGET,
  });
  if (args.includes('--write')) {
    const doc = join(ROOT, 'docs', 'performance.md');
    const textDoc = readFileSync(doc, 'utf8');
    const re = /(<!-- bulk-sync:start -->\n)[\s\S]*?(\n<!-- bulk-sync:end -->)/;
    if (!re.test(textDoc)) throw new Error('docs/performance.md has no bulk-sync markers');
    writeFileSync(
      doc,
      textDoc.replace(re, (_, a, b) => `${a}${table}${b}`),
    );
  }
} catch (err) {
  console.error(String(err?.stack ?? err));
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
