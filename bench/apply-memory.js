#!/usr/bin/env node
// Memory of `adops mutations apply FILE --dry-run` (issue 13): the file is
// streamed and read twice rather than held, so peak RSS should not grow with
// the row count. Runs the built CLI on a ROWS-row CSV (default 300,000) and on
// one a tenth that size, output to /dev/null, next to `adops --version` as the
// baseline of the same run. Prints a Markdown table and `figure:` lines;
// `--write` puts the table in docs/performance.md between the "apply-memory" markers.
// Usage: node bench/apply-memory.js [--rows N] [--write]   (needs `npm run build`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PEAK_RSS_ARGS, peakRssKib, renameRows } from './lib/peak-rss.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'adops.js');
const args = process.argv.slice(2);
const ROWS = args.includes('--rows') ? Number(args[args.indexOf('--rows') + 1]) : 300_000;
const LIMIT_MIB = 150;

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'adops-bench-apply-'));
const measure = (cli) => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...PEAK_RSS_ARGS, BIN, ...cli], {
    stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ADOPS_CONFIG_DIR: join(work, 'config') },
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`adops ${cli.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
  return { s: (performance.now() - t0) / 1000, mib: peakRssKib(r.stderr) / 1024 };
};
try {
  const files = [Math.round(ROWS / 10), ROWS].map((n) => {
    const file = join(work, `rows-${n}.csv`);
    writeFileSync(file, renameRows(n));
    return { n, file, bytes: statSync(file).size };
  });
  const base = measure(['--version']);
  const runs = files.map((f) => ({ ...f, ...measure(['mutations', 'apply', f.file, '--dry-run', '--output', 'csv']) }));
  const big = runs[1];
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} by bench/apply-memory.js, Node ${process.version}, ${cpus().length} cores (shared; load average ${loadavg()[0].toFixed(1)}); peak RSS from the process itself (VmHWM, its own since exec: bench/lib/peak-rss.js), plan written as CSV to /dev/null:`,
    '',
    '| Case | Peak RSS | Time |',
    '| --- | --- | --- |',
    `| \`adops --version\` (baseline) | ${base.mib.toFixed(0)} MiB | ${base.s.toFixed(2)} s |`,
    ...runs.map(
      (r) =>
        `| \`mutations apply --dry-run\`, ${r.n.toLocaleString('en')} rows (${(r.bytes / 2 ** 20).toFixed(1)} MiB) | ${r.mib.toFixed(0)} MiB | ${r.s.toFixed(2)} s |`,
    ),
  ].join('\n');
  console.log(table);
  console.log(
    `figure: ${JSON.stringify({ measure: `apply --dry-run peak RSS, ${ROWS} rows`, result: `${big.mib.toFixed(0)} MiB`, baseline: `${runs[0].mib.toFixed(0)} MiB at ${runs[0].n} rows; ${base.mib.toFixed(0)} MiB for --version`, target: `< ${LIMIT_MIB} MiB`, met: big.mib < LIMIT_MIB })}`,
  );
  if (args.includes('--write')) {
    const doc = join(ROOT, 'docs', 'performance.md');
    const re = /(<!-- apply-memory:start -->\n)[\s\S]*?(\n<!-- apply-memory:end -->)/;
    writeFileSync(
      doc,
      readFileSync(doc, 'utf8').replace(re, (_, a, b) => `${a}${table}${b}`),
    );
  }
  if (big.mib >= LIMIT_MIB) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
