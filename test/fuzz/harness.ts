// One fuzz run: a case (a command line from the command's own examples), a
// service as hostile as the run's generator draws it (stand-in.ts), the CLI
// run in this process on a virtual clock (retry waits and polls are instant),
// then every invariant judged (judge.ts) over what it printed and wrote.
// Seeded: fast-check gives each run its generator (fc.gen()); a failure
// prints the seed and path and the command that replays that very run.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { getHeapStatistics } from 'node:v8';
import type { CommandTree } from '../../src/cli/registry.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp.js';
import { virtualClock } from '../helpers/virtual-clock.js';
import type { Clock } from '../../src/cli/context.js';
import { chance, pick, type Gen } from './answers.js';
import { JUDGED, PROPOSES, type FuzzCase } from './cases.js';
import { ANSWER_VIEWS } from '../../src/contract/answer-views.js';
import type { OperationId } from '../../src/contract/operations.js';
import { judge } from './judge.js';
import { FUZZ_KEY } from './key.js';
import { Scenario, type Hostility, type StandIn } from './stand-in.js';

/** The day the runs live on: plans' flights and Insights' days are drawn around it (the as-of day the examples of plans pacing name). */
export const FUZZ_TODAY = '2026-09-20';
/** A run that has not ended by then (real time) did not end. */
const RUN_BOUND_MS = 12_000;

export const HOSTILITIES: readonly Hostility[] = [
  { broken: 0, failure: 0, garbled: 0 },
  { broken: 12, failure: 6, garbled: 2 },
  { broken: 35, failure: 12, garbled: 4 },
];
const FORMATS = [undefined, 'json', 'ndjson', 'csv', 'markdown'] as const;

/** What a command's verdicts read, by operation: the reads of its views (cases.ts JUDGED), and a proposal's (PROPOSES) when asked for. */
export function aimsOf(command: string, argv: readonly string[]): Map<OperationId, string[]> {
  const out = new Map<OperationId, string[]>();
  const proposes = PROPOSES[command];
  const views = new Set([...(JUDGED[command]?.views ?? []), ...(proposes && argv.includes(proposes.flag) ? proposes.views : [])]);
  for (const v of views) {
    const { op, reads } = ANSWER_VIEWS[v];
    out.set(op, [...(out.get(op) ?? []), ...reads.map((r) => r.replace(/\?$/, ''))]);
  }
  return out;
}

/** Every file under `dir`, with its text (a journal, a cache, the config). */
function filesUnder(dir: string, out = new Map<string, string>()): Map<string, string> {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) filesUnder(file, out);
    else out.set(file, readFileSync(file, 'utf8'));
  }
  return out;
}

export interface RunReport {
  argv: string[];
  code: number | null;
  failures: string[];
  stdout: string;
  stderr: string;
}

/** Exit codes a command documents beside the common ones (its spec's `exits`, shown on its help page). */
export const documentedExits = (tree: CommandTree, command: string): readonly number[] => tree.commands.find((c) => c.path.join(' ') === command)?.exits ?? [];

export interface RunWorld {
  standIn: StandIn;
  tree: CommandTree;
  /** The folder the examples' files are in (the runs' working directory). */
  work: string;
  files: ReadonlyArray<{ filename: string; sizeBytes: number; sha256: string }>;
}

/** One run of `c` against a service the generator draws. */
export async function runOnce(world: RunWorld, c: FuzzCase, g: Gen): Promise<RunReport> {
  const hostility = pick(g, HOSTILITIES);
  const controller = new AbortController();
  const scenario = new Scenario(g, hostility, FUZZ_TODAY, world.standIn.storageOrigin, () => controller.abort(), {
    files: world.files,
    aims: aimsOf(c.command, c.argv),
  });
  world.standIn.scenario = scenario;
  const given = (flag: string) => c.argv.some((a) => a === flag || a.startsWith(`${flag}=`));
  const format = given('-o') || given('--output') || given('--json') ? undefined : pick(g, FORMATS);
  const argv = [
    ...c.argv,
    ...(format ? ['--output', format] : []),
    ...(c.destructive && !given('--yes') ? ['--yes'] : []),
    ...(chance(g, 10) ? ['--debug'] : []),
  ];
  const explicit = argv[argv.indexOf('--output') + 1] ?? argv[argv.indexOf('-o') + 1];
  const shownFormat = given('--json') ? 'json' : argv.includes('--output') || argv.includes('-o') ? explicit : undefined;
  const dir = tempDir('adops-fuzz-');
  // A run's journal is its own (by default it sits beside the change file, shared by every run: a replay would
  // start from another state); it is judged with the run's other files.
  if (c.command === 'mutations apply' && !given('--journal')) argv.push('--journal', join(dir, 'journal.ndjson'));
  // A change file a run proposes is its own too (else the next run finds it and is refused, exit 2), judged with its files.
  const proposes = PROPOSES[c.command];
  const fileAt = proposes ? argv.indexOf(proposes.flag) + 1 : 0;
  if (fileAt > 0 && argv[fileAt] !== undefined) argv[fileAt] = join(dir, basename(argv[fileAt]));
  const summaryFile = join(dir, 'step-summary.md');
  const inActions = chance(g, 30);
  const env: Record<string, string> = {
    ADOPS_BASE_URL: world.standIn.apiOrigin,
    ADOPS_API_KEY: FUZZ_KEY,
    ADOPS_CONFIG_DIR: join(dir, 'config'),
    CI: 'true',
    ...(inActions ? { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile } : {}),
  };
  // The heap in use, as process.memoryUsage().heapUsed reads it (the same V8 figure) without its resident-set read:
  // that read took ~9% of the fuzzer's time at load (a CPU profile of this file), twice per run.
  const heapBefore = getHeapStatistics().used_heap_size;
  const clock = watchedClock(virtualClock(Date.parse(`${FUZZ_TODAY}T12:00:00Z`)));
  try {
    const r = await runAdopsInProcess(argv, {
      env,
      ...(c.stdin ? { stdin: readFileSync(join(world.work, c.stdin), 'utf8') } : {}),
      timeoutMs: RUN_BOUND_MS,
      clock,
      abort: controller.signal,
    });
    // A worker the command left going sleeps on its clock within a turn or two of the loop (a virtual sleep is one).
    clock.ended = true;
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    const files = filesUnder(dir);
    const summary = files.get(summaryFile);
    const failures = judge({
      command: c.command,
      argv,
      code: r.code,
      stdout: r.stdout,
      stderr: r.stderr,
      format: shownFormat,
      served: scenario.served,
      requests: scenario.requests,
      overBudget: scenario.overBudget,
      documented: documentedExits(world.tree, c.command),
      files,
      ...(summary !== undefined ? { summary } : {}),
      heapGrowth: getHeapStatistics().used_heap_size - heapBefore,
      clockAfterEnd: clock.afterEnd,
    });
    return { argv, code: r.code, failures, stdout: r.stdout, stderr: r.stderr };
  } finally {
    world.standIn.scenario = undefined;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A clock that counts its uses once `ended` is set (the run returned): nothing of a run may use it then. */
function watchedClock(inner: Clock): Clock & { ended: boolean; afterEnd: number } {
  const w = {
    ended: false,
    afterEnd: 0,
    now: () => {
      if (w.ended) w.afterEnd++;
      return inner.now();
    },
    sleep: (ms: number, signal?: AbortSignal) => {
      if (w.ended) w.afterEnd++;
      return inner.sleep(ms, signal);
    },
  };
  return w;
}

/**
 * One background refresh of the completion cache (what a TAB starts, detached: `adops __complete-refresh
 * KIND`), run here against the service the generator draws; then the TAB that reads the cache. Judged on
 * what it leaves behind: the cache file and the candidates printed (no escape, no key form), within its bound.
 */
export async function refreshOnce(world: RunWorld, kind: string, g: Gen): Promise<RunReport> {
  const scenario = new Scenario(g, pick(g, HOSTILITIES), FUZZ_TODAY, world.standIn.storageOrigin, () => {}, { files: world.files });
  world.standIn.scenario = scenario;
  const dir = tempDir('adops-fuzz-');
  const env = { ADOPS_BASE_URL: world.standIn.apiOrigin, ADOPS_API_KEY: FUZZ_KEY, ADOPS_CONFIG_DIR: join(dir, 'config'), HOME: dir };
  try {
    const { refresh } = await import('../../src/cli/complete-refresh.js');
    const { complete } = await import('../../src/cli/complete.js');
    const started = performance.now();
    const code = await refresh([kind], env);
    const ended = performance.now() - started < RUN_BOUND_MS ? code : null;
    let printed = '';
    const out = new PassThrough().on('data', (c) => (printed += String(c)));
    const registry = await import('../../src/commands/index.js');
    // The TAB that starts a refresh notes it (complete.ts); this run's refresh is that one. Noted, a TAB after
    // a refused answer does not spawn `adops __complete-refresh` (a detached process each, ~15 of the 60 runs:
    // unjudged, uncounted CPU, writing into a dir this run removes); what it prints is the same either way.
    const { openCache } = await import('../../src/cli/complete-scope.js');
    (await openCache(env, {}))?.cache.noteRefresh(kind, process.pid);
    for (const words of TAB_WORDS[kind] ?? []) await complete(words, env, out, async () => registry.getRegistry());
    const failures = judge({
      command: `completion refresh ${kind}`,
      argv: [kind],
      code: ended,
      stdout: printed,
      stderr: '',
      format: undefined,
      served: scenario.served,
      requests: scenario.requests,
      overBudget: scenario.overBudget,
      documented: [],
      files: filesUnder(dir),
    });
    return { argv: ['__complete-refresh', kind], code: ended, failures, stdout: printed, stderr: '' };
  } finally {
    world.standIn.scenario = undefined;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The words a TAB completes after a refresh of each kind (the argument the kind's ids fill). */
const TAB_WORDS: Readonly<Record<string, string[][]>> = {
  advertiser: [['observe', 'drift', '']],
  mutation: [['mutations', 'get', '']],
  skill: [['skills', 'get', '']],
  brand: [['brands', 'get', '']],
  plan: [['plans', 'get', '']],
  asset: [['assets', 'get', '']],
};

/** fast-check's parameters for a command's runs, from the environment `npm run fuzz` sets. */
export function fuzzParameters(defaultRuns: number): { numRuns: number; seed?: number; path?: string } {
  const runs = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : undefined;
  return { numRuns: runs, ...(seed !== undefined ? { seed } : {}), ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}) };
}
