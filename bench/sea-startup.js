#!/usr/bin/env node
// The single executable's start-up (issue #37): `adops --version`, `adops --help`
// and one stored page with `--json` (`adops observe campaigns --json`) run by the
// executable `npm run build:sea` writes, against `node -e 0` of the Node inside
// it (Node 24, the same binary the executable is a copy of), plus the floor of
// that read: the same page fetched by a bare `node -e` script with node:http on
// that Node. The sandbox is the executable's own (`adops sandbox serve`).
// N runs each, interleaved; medians of each child's wall and CPU time (user +
// system, bench/lib/timed-run.js), ratios to `node -e 0` of the same run, and a
// `figure:` JSON line per target for bench/run-all.js (the runs: bench/lib/start-up-runs.js).
// It builds the executable first (~30 s; `--no-build` runs the one in dist/sea),
// with Node 24 and postject kept in ADOPS_SEA_CACHE, else <tmpdir>/adops-sea-bench
// (downloaded once from the npm registry, as `npm run build:sea` does).
// Usage: node bench/sea-startup.js [--runs N] [--no-build]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOOR_SCRIPT, figureLines, interleavedRuns, loadText, startSandbox, tableLines } from './lib/start-up-runs.js';
import { cleanEnv } from './lib/timed-run.js';
import { scratchDir } from './lib/scratch-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const RUNS = Math.max(11, Number(args[args.indexOf('--runs') + 1]) || 15);
const TARGET = 1.3;
const cache = process.env.ADOPS_SEA_CACHE || join(tmpdir(), 'adops-sea-bench');
const exe = join(ROOT, 'dist', 'sea', `adops-${process.platform}-${process.arch}`);
const node24 = join(cache, 'node_modules', 'node', 'bin', 'node');

if (!args.includes('--no-build')) {
  execFileSync('npm', ['run', '--silent', 'build:sea'], { cwd: ROOT, env: { ...process.env, ADOPS_SEA_CACHE: cache }, stdio: ['ignore', 'ignore', 'inherit'] });
}
if (!existsSync(exe) || !existsSync(node24)) {
  console.error(`no executable or Node 24 to compare with (${exe}, ${node24}): run without --no-build`);
  process.exit(2);
}

const config = scratchDir('sea');
const env = cleanEnv({ ADOPS_CONFIG_DIR: config, XDG_CACHE_HOME: join(config, 'cache') });

const loadBefore = loadText();
// The executable's own sandbox.
const sandbox = await startSandbox([exe], env);
try {
  const { baseUrl, apiKey } = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.sandbox;
  const read = ['observe', 'campaigns', '--json'];
  const { base, rows } = interleavedRuns(
    {
      'node -e 0': { argv: [node24, '-e', '0'], env, label: '`node -e 0` (the Node inside the executable)' },
      floor: { argv: [node24, '-e', FLOOR_SCRIPT], env: { ...env, U: baseUrl, K: apiKey }, label: 'floor: the same page with bare node:http (`node -e`)' },
      '--version': { argv: [exe, '--version'], env, label: 'executable `adops --version`', target: TARGET },
      '--help': { argv: [exe, '--help'], env, label: 'executable `adops --help`' },
      'stored read': { argv: [exe, ...read], env, label: `executable \`adops ${read.join(' ')}\` (one stored page)`, target: TARGET },
    },
    RUNS,
  );
  const nodeVersion = execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim();
  const header = `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, the executable on Node ${nodeVersion}, ${RUNS} interleaved runs each, medians; load average (1, 5, 15 min) ${loadBefore} before, ${loadText()} after:`;
  console.log(tableLines(header, rows).join('\n'));
  const baseline = `${nodeVersion} -e 0 ${base.wall.toFixed(1)} ms wall, ${base.cpu.toFixed(1)} ms CPU`;
  for (const line of figureLines(rows, (r) => `${r.label} × node -e 0 of its Node (wall, CPU)`, baseline)) console.log(line);
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((resolve) => sandbox.once('exit', resolve));
}
