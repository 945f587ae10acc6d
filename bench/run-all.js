#!/usr/bin/env node
// Runs every bench/*.js except itself, one after another, passing arguments
// through (e.g. `npm run bench -- --write`). Exit code: the worst of them.
// A bench may print `figure: {measure, result, baseline, target, met}` lines;
// they are gathered into one table at the end, each figure next to the
// baseline its bench measured in the same run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
let worst = 0;
const figures = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.js') && f !== self)
  .sort()) {
  console.log(`\n== bench/${file}`);
  const r = spawnSync(process.execPath, [join(dir, file), ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const out = String(r.stdout ?? '');
  process.stdout.write(out);
  for (const line of out.split('\n')) {
    if (line.startsWith('figure: ')) figures.push({ bench: file, ...JSON.parse(line.slice('figure: '.length)) });
  }
  worst = Math.max(worst, r.status ?? 1);
}
if (figures.length > 0) {
  console.log('\n== every figure next to its baseline (same run)');
  for (const f of figures) console.log(`${f.met ? 'ok ' : 'NO '} ${f.measure}: ${f.result}  |  baseline: ${f.baseline}  |  target: ${f.target}  (${f.bench})`);
}
process.exitCode = worst;
