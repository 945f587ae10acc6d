#!/usr/bin/env node
// Runs every bench/*.js except itself, one after another, passing arguments
// through (e.g. `npm run bench -- --write`). Exit code: the worst of them.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
let worst = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.js') && f !== self).sort()) {
  console.log(`\n== bench/${file}`);
  const r = spawnSync(process.execPath, [join(dir, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  worst = Math.max(worst, r.status ?? 1);
}
process.exitCode = worst;
