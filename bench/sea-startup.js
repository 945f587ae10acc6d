#!/usr/bin/env node
// The single executable's start-up (issue #37): `adops --version`, `adops --help`
// and one stored page with `--json` (`adops observe campaigns --json`) run by the
// executable `npm run build:sea` writes, against `node -e 0` of the Node inside
// it (Node 24, the same binary the executable is a copy of), plus the floor of
// that read: the same page fetched by a bare `node -e` script with node:http on
// that Node. The sandbox is the executable's own (`adops sandbox serve`).
// N runs each, interleaved; medians of each child's wall and CPU time (user +
// system, bench/lib/timed-run.js), ratios to `node -e 0` of the same run, and a
// `figure:` JSON line per target for bench/run-all.js.
// It builds the executable first (~30 s; `--no-build` runs the one in dist/sea),
// with Node 24 and postject kept in ADOPS_SEA_CACHE, else <tmpdir>/adops-sea-bench
// (downloaded once from the npm registry, as `npm run build:sea` does).
// Usage: node bench/sea-startup.js [--runs N] [--no-build]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, timedRun } from './lib/timed-run.js';

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

const config = mkdtempSync(join(tmpdir(), 'adops-bench-sea-'));
const env = cleanEnv({ ADOPS_CONFIG_DIR: config, XDG_CACHE_HOME: join(config, 'cache') });

function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(exe, ['sandbox', 'serve', '--port', '0', '--data', ':memory:', '--login', '--ingest-every', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (/listening on /.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`the executable's sandbox exited ${code}`)));
  });
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();
const sandbox = await startSandbox();
try {
  const { baseUrl, apiKey } = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.sandbox;
  // The very request adops sends for `observe campaigns` (GET /observe/campaigns); the key through the environment.
  const floor = `require('node:http').get(process.env.U + '/observe/campaigns', { headers: { authorization: 'Bearer ' + process.env.K, accept: 'application/json' } }, (r) => { r.resume(); r.on('end', () => process.exit(0)); })`;
  const read = ['observe', 'campaigns', '--json'];
  // name -> [argv, env, label, target (× `node -e 0`, CPU and wall) or undefined]
  const cases = {
    'node -e 0': [[node24, '-e', '0'], env, '`node -e 0` (the Node inside the executable)'],
    floor: [[node24, '-e', floor], { ...env, U: baseUrl, K: apiKey }, 'floor: the same page with bare node:http (`node -e`)'],
    '--version': [[exe, '--version'], env, 'executable `adops --version`', TARGET],
    '--help': [[exe, '--help'], env, 'executable `adops --help`'],
    'stored read': [[exe, ...read], env, `executable \`adops ${read.join(' ')}\` (one stored page)`, TARGET],
  };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, { wall: [], cpu: [] }]));
  for (const [argv, e] of Object.values(cases)) timedRun(argv, e); // warm the file cache
  for (let i = 0; i < RUNS; i++) {
    for (const [name, [argv, e]] of Object.entries(cases)) {
      const r = timedRun(argv, e);
      if (r.status !== 0) throw new Error(`${name} failed (${r.status}): ${r.stderr}`);
      samples[name].wall.push(r.wallMs);
      samples[name].cpu.push(r.cpuMs);
    }
  }
  const base = { wall: median(samples['node -e 0'].wall), cpu: median(samples['node -e 0'].cpu) };
  const rows = Object.entries(samples).map(([name, s]) => {
    const [, , label, target] = cases[name];
    const wall = median(s.wall);
    const cpu = median(s.cpu);
    const ok = target === undefined || (wall / base.wall <= target && cpu / base.cpu <= target);
    return { label, wall, cpu, wallX: wall / base.wall, cpuX: cpu / base.cpu, target, ok };
  });
  const nodeVersion = execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    [
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, the executable on Node ${nodeVersion}, ${RUNS} interleaved runs each, medians; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after:`,
      '',
      '| Command | wall ms | × `node -e 0` | CPU ms | × `node -e 0` | Target (both) | Met |',
      '| --- | ---: | ---: | ---: | ---: | ---: | :-: |',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${r.wall.toFixed(1)} | ${r.wallX.toFixed(2)} | ${r.cpu.toFixed(1)} | ${r.cpuX.toFixed(2)} | ${r.target ? `≤ ${r.target}` : ''} | ${r.target ? (r.ok ? 'yes' : 'NO') : ''} |`,
      ),
    ].join('\n'),
  );
  for (const r of rows.filter((x) => x.target)) {
    const f = {
      measure: `${r.label} × node -e 0 of its Node (wall, CPU)`,
      result: `${r.wallX.toFixed(2)}×, ${r.cpuX.toFixed(2)}×`,
      baseline: `${nodeVersion} -e 0 ${base.wall.toFixed(1)} ms wall, ${base.cpu.toFixed(1)} ms CPU`,
      target: `≤ ${r.target}×`,
      met: r.ok,
    };
    console.log(`figure: ${JSON.stringify(f)}`);
  }
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((resolve) => sandbox.once('exit', resolve));
  rmSync(config, { recursive: true, force: true });
}
