// What the two start-up benches share (bench/startup.js: the npm install; bench/sea-startup.js: the single
// executable): the sandbox they read from, the bare-request floor, the interleaved timed runs and their medians
// against `node -e 0`, and the `figure:` lines bench/run-all.js reads.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { median, timedRun } from './timed-run.js';

// The very request adops sends for `observe campaigns` (GET /observe/campaigns, the service's default page) with bare
// node:http: the floor of a stored read. The base URL and the key come from the environment (U, K), never argv.
export const FLOOR_SCRIPT = `require('node:http').get(process.env.U + '/observe/campaigns', { headers: { authorization: 'Bearer ' + process.env.K, accept: 'application/json' } }, (r) => { r.resume(); r.on('end', () => process.exit(0)); })`;

export const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** `<argv> sandbox serve` on a free loopback port (in memory, logged in: it writes the config's profile); the child once listening. */
export function startSandbox(argv, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], [...argv.slice(1), 'sandbox', 'serve', '--port', '0', '--data', ':memory:', '--login', '--ingest-every', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (/listening on /.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
  });
}

/**
 * cases: name -> { argv, env, target? } (the first is the yardstick, `node -e 0`). One warm-up run of each, then
 * `runs` rounds of every case in turn, so the machine's load hits all alike. Rows: medians of wall and CPU time,
 * their ratios to the first case's, and whether each target (both ratios) is met.
 */
export function interleavedRuns(cases, runs) {
  const names = Object.keys(cases);
  const samples = Object.fromEntries(names.map((k) => [k, { wall: [], cpu: [] }]));
  for (const { argv, env } of Object.values(cases)) timedRun(argv, env); // warm the file cache
  for (let i = 0; i < runs; i++) {
    for (const [name, { argv, env }] of Object.entries(cases)) {
      const r = timedRun(argv, env);
      if (r.status !== 0) throw new Error(`${name} failed (${r.status}): ${r.stderr}`);
      samples[name].wall.push(r.wallMs);
      samples[name].cpu.push(r.cpuMs);
    }
  }
  const base = { wall: median(samples[names[0]].wall), cpu: median(samples[names[0]].cpu) };
  const rows = names.map((name) => {
    const wall = median(samples[name].wall);
    const cpu = median(samples[name].cpu);
    const target = cases[name].target;
    const ok = target === undefined || (wall / base.wall <= target && cpu / base.cpu <= target);
    return { name, label: cases[name].label, wall, cpu, wallX: wall / base.wall, cpuX: cpu / base.cpu, target, ok };
  });
  return { base, rows };
}

/** The rows as a markdown table (after its header line). */
export function tableLines(header, rows) {
  return [
    header,
    '',
    '| Command | wall ms | × `node -e 0` | CPU ms | × `node -e 0` | Target (both) | Met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | :-: |',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.wall.toFixed(1)} | ${r.wallX.toFixed(2)} | ${r.cpu.toFixed(1)} | ${r.cpuX.toFixed(2)} | ${r.target ? `≤ ${r.target}` : ''} | ${r.target ? (r.ok ? 'yes' : 'NO') : ''} |`,
    ),
  ];
}

/** One `figure:` JSON line per row with a target, for bench/run-all.js. */
export function figureLines(rows, measure, baseline) {
  return rows
    .filter((r) => r.target)
    .map(
      (r) =>
        `figure: ${JSON.stringify({ measure: measure(r), result: `${r.wallX.toFixed(2)}×, ${r.cpuX.toFixed(2)}×`, baseline, target: `≤ ${r.target}×`, met: r.ok })}`,
    );
}
