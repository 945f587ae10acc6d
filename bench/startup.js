#!/usr/bin/env node
// CLI start-up benchmark (issues #4, #8, #16): `node -e 0`, `adops --version`,
// `adops --help`, a command's help (`adops observe campaigns list --help`) and
// one stored page with `--json` (`adops observe campaigns --json`) against a
// local sandbox the bench starts itself, plus the floor of that read: the same
// page fetched by a bare `node -e` script with node:http (what any client on
// node pays). N runs each, interleaved so the machine's load hits all alike;
// each run's wall and CPU time (user + system of that child alone,
// bench/lib/timed-run.js); medians, and ratios to `node -e 0` of the same run.
// The environment is clean: no NODE_OPTIONS, no NODE_EXTRA_CA_CERTS.
// `--write` puts the table in docs/performance.md between the "cli-startup" markers.
// Each target is also printed as a `figure:` JSON line for bench/run-all.js.
// Usage: node bench/startup.js [--runs N] [--write]   (needs `npm run build`)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, timedRun } from './lib/timed-run.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// What `adops` runs once installed (package.json "bin").
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.adops);
const args = process.argv.slice(2);
const RUNS = Math.max(11, Number(args[args.indexOf('--runs') + 1]) || 15);
const WRITE = args.includes('--write');

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const config = mkdtempSync(join(tmpdir(), 'adops-bench-'));
const env = cleanEnv({ ADOPS_CONFIG_DIR: config });

function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--data', ':memory:', '--login', '--ingest-every', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (/listening on /.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const sandbox = await startSandbox();
try {
  const { baseUrl, apiKey } = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.sandbox;
  // The floor fetches the very request adops sends (`observe campaigns`: GET /observe/campaigns, the service's default page).
  // The key goes through the environment, never argv.
  const floor = `require('node:http').get(process.env.U + '/observe/campaigns', { headers: { authorization: 'Bearer ' + process.env.K, accept: 'application/json' } }, (r) => { r.resume(); r.on('end', () => process.exit(0)); })`;
  const floorEnv = { ...env, U: baseUrl, K: apiKey };
  const read = ['observe', 'campaigns', '--json'];
  const cmdHelp = ['observe', 'campaigns', 'list', '--help'];
  // name -> [argv, env, target (× `node -e 0`, CPU and wall) or undefined]
  const cases = {
    'node -e 0': [[process.execPath, '-e', '0'], env],
    floor: [[process.execPath, '-e', floor], floorEnv],
    '--version': [[process.execPath, BIN, '--version'], env, 1.3],
    '--help': [[process.execPath, BIN, '--help'], env, 1.3],
    'command --help': [[process.execPath, BIN, ...cmdHelp], env, 1.3],
    'stored read': [[process.execPath, BIN, ...read], env, 2],
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
  const loadAfter = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const base = { wall: median(samples['node -e 0'].wall), cpu: median(samples['node -e 0'].cpu) };
  const label = {
    'node -e 0': '`node -e 0`',
    floor: 'floor: the same page with bare node:http (`node -e`)',
    '--version': '`adops --version`',
    '--help': '`adops --help`',
    'command --help': `\`adops ${cmdHelp.join(' ')}\``,
    'stored read': `\`adops ${read.join(' ')}\` (one stored page)`,
  };
  const rows = Object.entries(samples).map(([name, s]) => {
    const wall = median(s.wall);
    const cpu = median(s.cpu);
    const target = cases[name][2];
    const ok = target === undefined || (wall / base.wall <= target && cpu / base.cpu <= target);
    return { name, wall, cpu, wallX: wall / base.wall, cpuX: cpu / base.cpu, target, ok };
  });
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.versions.node}, ${RUNS} interleaved runs each, medians; load average (1, 5, 15 min) ${loadBefore} before, ${loadAfter} after:`,
    '',
    '| Command | wall ms | × `node -e 0` | CPU ms | × `node -e 0` | Target (both) | Met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | :-: |',
    ...rows.map(
      (r) =>
        `| ${label[r.name]} | ${r.wall.toFixed(1)} | ${r.wallX.toFixed(2)} | ${r.cpu.toFixed(1)} | ${r.cpuX.toFixed(2)} | ${r.target ? `≤ ${r.target}` : ''} | ${r.target ? (r.ok ? 'yes' : 'NO') : ''} |`,
    ),
  ];
  console.log(lines.join('\n'));
  for (const r of rows.filter((x) => x.target)) {
    const f = {
      measure: `${label[r.name]} × node -e 0 (wall, CPU)`,
      result: `${r.wallX.toFixed(2)}×, ${r.cpuX.toFixed(2)}×`,
      baseline: `node -e 0 ${base.wall.toFixed(1)} ms wall, ${base.cpu.toFixed(1)} ms CPU`,
      target: `≤ ${r.target}×`,
      met: r.ok,
    };
    console.log(`figure: ${JSON.stringify(f)}`);
  }
  if (WRITE) {
    const file = join(ROOT, 'docs', 'performance.md');
    const begin = '<!-- cli-startup:begin (written by `node bench/startup.js --write`) -->';
    const end = '<!-- cli-startup:end -->';
    let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
    const section = `${begin}\n${lines.join('\n')}\n${end}`;
    if (doc.includes(begin)) doc = doc.replace(new RegExp(`${begin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), section);
    else doc += `\n## CLI start-up\n\nHow fast \`adops\` starts compared with bare node.\n\n${section}\n`;
    writeFileSync(file, doc);
    console.log(`\nwritten to ${file}`);
  }
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
} finally {
  sandbox.kill('SIGTERM');
}
