#!/usr/bin/env node
// Runs every bench/*.js except itself, one after another, passing arguments
// through (e.g. `npm run bench -- --write`); `--only a,b` runs those benches
// alone (names without .js, e.g. `--only ndjson-stream,sandbox-mixed`).
// A bench prints `figure: {measure, result, baseline, target, met}` lines;
// they are gathered into one Markdown table at the end, each figure next to
// the baseline its bench measured in the same run, with the machine's load
// before and after (docs/performance.md records such a run).
// Exit status: 0 when every bench ran and every figure met its target; 1 when
// a figure missed its target; 2 when a bench could not run (crashed — Node's
// exit 1 for an uncaught error, told from a missed target by the figures —
// killed, not built, an unreadable figure line): its row in the table says
// FAILED, as a missing figure must not read as a pass.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const onlyAt = argv.indexOf('--only');
const only =
  onlyAt >= 0
    ? new Set(
        String(argv[onlyAt + 1] ?? '')
          .split(',')
          .filter(Boolean),
      )
    : undefined;
const passed = onlyAt >= 0 ? [...argv.slice(0, onlyAt), ...argv.slice(onlyAt + 2)] : argv;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.js') && f !== self)
  .filter((f) => !only || only.has(f.replace(/\.js$/, '')))
  .sort();
if (only && benches.length !== only.size) {
  console.error(`--only: no bench named ${[...only].filter((n) => !benches.includes(`${n}.js`)).join(', ')} in bench/`);
  process.exit(2);
}

const loadBefore = load();
const started = new Date();
let worst = 0;
const rows = [];
for (const file of benches) {
  console.log(`\n== bench/${file}`);
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(dir, file), ...passed], { stdio: ['inherit', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - t) / 1000;
  const out = String(r.stdout ?? '');
  process.stdout.write(out);
  let unreadable = 0;
  const figures = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('figure: ')) continue;
    try {
      figures.push(JSON.parse(line.slice('figure: '.length)));
    } catch {
      unreadable += 1;
    }
  }
  // Ran: exit 0, or exit 1 with a figure that missed its target, every figure line read. Anything else
  // could not run: exit 1 is also what Node gives an uncaught error, so exit 1 with no missed figure is a failure.
  const missed = figures.some((f) => !f.met);
  const ran = r.error === undefined && unreadable === 0 && (r.status === 0 || (r.status === 1 && missed));
  const why = r.error
    ? r.error.message
    : r.signal
      ? `killed by ${r.signal}`
      : unreadable
        ? `${unreadable} unreadable figure line(s)`
        : r.status === 1
          ? 'exit 1 and no figure missed its target: an error (see above)'
          : `exit ${r.status}`;
  if (!ran) {
    worst = 2;
    rows.push({ status: 'FAILED', measure: `bench/${file} did not run to its end (${why})`, result: '', baseline: '', target: '', bench: file });
  }
  for (const f of figures) {
    rows.push({ status: f.met ? 'ok' : 'NO', ...f, bench: file });
    if (!f.met) worst = Math.max(worst, 1);
  }
  console.log(`(bench/${file}: ${seconds.toFixed(0)} s, ${ran ? `exit ${r.status}` : why})`);
}

const cell = (v) => String(v ?? '').replace(/\|/g, '\\|');
console.log(
  [
    '',
    '== every figure next to its baseline (same run)',
    '',
    `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node bench/run-all.js\` on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.versions.node}; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after:`,
    '',
    '| Met | Measure | Result | Baseline (same run) | Target | Bench |',
    '| :-: | --- | --- | --- | --- | --- |',
    ...rows.map((f) => `| ${f.status} | ${cell(f.measure)} | ${cell(f.result)} | ${cell(f.baseline)} | ${cell(f.target)} | ${cell(f.bench)} |`),
    '',
    worst === 0 ? 'every target met' : worst === 1 ? 'a target was missed (NO above): exit 1' : 'a bench did not run (FAILED above): exit 2',
  ].join('\n'),
);
process.exitCode = worst;
