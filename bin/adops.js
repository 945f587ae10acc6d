#!/usr/bin/env node
// Thin launcher: everything lives in the built code. `adops --version` is
// answered here from package.json, before any module of ours loads, so it
// costs little more than starting node.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version + '\n');
} else {
  await import('../dist/cli/main.js');
}
