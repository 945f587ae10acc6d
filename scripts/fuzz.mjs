#!/usr/bin/env node
// `npm run fuzz -- [--runs N] [--command 'plans verify'] [--seed S] [--path P] [--survey]`: the contract fuzzer
// (test/fuzz) for longer than `npm test` runs it. Every command of the registry that calls an
// operation, N runs each (default 50), against a service that breaks its contract; ends with
// `fuzz: C commands, R runs, F failures`, and exits 1 when F > 0. --seed and --path replay the run a
// failure printed (with its --command). --survey goes on past a command's first failure and lists every
// failing run (F then counts failing runs). Runs the CLI's sources in process through vitest, as npm test does.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const value = (flag) => {
  const i = args.indexOf(flag);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) {
    console.error(`fuzz: ${flag} needs a value`);
    process.exit(2);
  }
  return v;
};
const known = new Set(['--runs', '--command', '--seed', '--path']);
const flags = new Set(['--survey']);
const unknown = args.filter((a, i) => a.startsWith('--') && !known.has(a) && !flags.has(a) && !known.has(args[i - 1]));
if (unknown.length) {
  console.error(`fuzz: unknown option ${unknown[0]} (use --runs N, --command 'group verb', --seed S, --path P)`);
  process.exit(2);
}
const runs = value('--runs') ?? '50';
if (!/^[1-9]\d*$/.test(runs)) {
  console.error('fuzz: --runs needs a whole number from 1');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'adops-fuzz-report-'));
const report = join(dir, 'report.ndjson');
const env = {
  ...process.env,
  FUZZ_RUNS: runs,
  FUZZ_REPORT: report,
  ...(value('--command') ? { FUZZ_COMMAND: value('--command') } : {}),
  ...(value('--seed') ? { FUZZ_SEED: value('--seed') } : {}),
  ...(value('--path') ? { FUZZ_PATH: value('--path') } : {}),
  ...(args.includes('--survey') ? { FUZZ_SURVEY: '1' } : {}),
};
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
// No --project: the fuzz files run in whichever project of vitest.config.ts holds them (#37 session 4 moved them
// from e2e to e2e-shared, and a named project then matched no file: "0 runs", exit 0).
const run = spawnSync(process.execPath, [vitest, 'run', 'test/fuzz/'], { cwd: root, env, stdio: 'inherit' });
let commands = 0;
let total = 0;
let failures = 0;
try {
  for (const line of readFileSync(report, 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(line);
    commands += r.commands;
    total += r.runs;
    failures += r.failures;
  }
} catch {
  // no report: vitest failed before the fuzzer ran
}
rmSync(dir, { recursive: true, force: true });
console.log(`fuzz: ${commands} commands, ${total} runs, ${failures} failures`);
// Nothing fuzzed is no success: a --command that names no command, or no fuzz file run.
if (total === 0)
  console.error(`fuzz: no run was made${value('--command') ? ` (does --command '${value('--command')}' name a command that calls an operation?)` : ''}`);
process.exit(failures > 0 || total === 0 || run.status !== 0 ? 1 : 0);
