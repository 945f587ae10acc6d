// The contract fuzzer (issue #34): every command of the registry that calls an
// operation, run from its own examples against a service that breaks its
// contract in every way the contract can be broken (test/fuzz/README.md), and
// completion's background refresh. `npm test` runs a fixed budget (DEFAULT_RUNS
// per command); `npm run fuzz -- --runs N` runs longer and ends with
// `fuzz: C commands, R runs, F failures`. A failure prints its seed and path,
// and the command that replays that very run.
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_SOURCES } from '../../src/cli/complete-kinds.js';
import { getRegistry } from '../../src/commands/index.js';
import { tempDir } from '../helpers/temp.js';
import { casesOf, writeFixtures } from './cases.js';
import { fuzzParameters, refreshOnce, runOnce, type RunReport, type RunWorld } from './harness.js';
import { StandIn } from './stand-in.js';

/** Runs per command in `npm test`: every command (about 2,500 runs) within about 20 s on two cores. */
const DEFAULT_RUNS = 30;
/**
 * `npm test` replays the same runs every time (a suite must not pass or fail by chance); `npm run fuzz`
 * draws a new seed each time, to explore.
 */
const TEST_SEED = 34;
const REFRESH = 'completion refresh';

const tree = getRegistry();
const all = casesOf(tree);
const only = process.env.FUZZ_COMMAND;
const commands = [...all.keys()].filter((c) => only === undefined || c === only);
const withRefresh = only === undefined || only === REFRESH;
const standIn = new StandIn();
const work = tempDir('adops-fuzz-work-');
const home = process.cwd();
let world: RunWorld;
let runs = 0;
let failures = 0;

beforeAll(async () => {
  await standIn.start();
  world = { standIn, tree, work, files: writeFixtures(work) };
  // The examples name their files relative to where they run (hero.jpg, ./creatives).
  process.chdir(work);
});

afterAll(async () => {
  process.chdir(home);
  await standIn.stop();
  const covered = commands.length + (withRefresh ? 1 : 0);
  if (process.env.FUZZ_REPORT) appendFileSync(process.env.FUZZ_REPORT, `${JSON.stringify({ commands: covered, runs, failures })}\n`);
});

const described = (r: RunReport) => [`adops ${r.argv.join(' ')} → exit ${r.code}`, ...r.failures.map((f) => `  - ${f}`)].join('\n');

/**
 * Runs `one` as a property: each run its own generator, replayable from the seed and its path. It stops at
 * the first failing run; a survey (`npm run fuzz -- --survey`) goes on and lists every failing run (a run's
 * path is its index when nothing shrinks), then fails.
 */
async function fuzz<T>(name: string, choices: readonly T[], one: (c: T, g: fc.GeneratorValue) => Promise<RunReport>, defaultRuns: number): Promise<void> {
  const params = fuzzParameters(defaultRuns);
  const seed = params.seed ?? (process.env.FUZZ_REPORT ? (Math.random() * 0x7fffffff) | 0 : TEST_SEED);
  const survey = process.env.FUZZ_SURVEY === '1';
  const replay = (path: string) => `npm run fuzz -- --command '${name}' --seed ${seed} --path '${path}'`;
  const found: string[] = [];
  let index = 0;
  const result = await fc.check(
    fc.asyncProperty(fc.constantFrom(...choices), fc.gen(), async (c, g) => {
      const r = await one(c, g);
      const path = params.path ?? String(index);
      index++;
      runs++;
      if (r.failures.length === 0) return;
      if (!survey) throw new Error(`${described(r)}\n  stdout: ${JSON.stringify(r.stdout.slice(0, 600))}\n  stderr: ${JSON.stringify(r.stderr.slice(0, 600))}`);
      failures++;
      found.push(`replay: ${replay(path)}\n${described(r)}`);
    }),
    { ...params, seed, endOnFailure: true },
  );
  if (result.failed) {
    failures++;
    const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    throw new Error(`${name}: seed ${seed}, path ${result.counterexamplePath}\nreplay: ${replay(result.counterexamplePath ?? '')}\n${error}`);
  }
  if (found.length) throw new Error(`${name}: ${found.length} failing runs\n${found.join('\n')}`);
}

describe('the contract fuzzer', () => {
  it('covers every command that calls an operation, each with at least one runnable example', () => {
    const without = [...all].filter(([, cases]) => cases.length === 0).map(([c]) => c);
    expect(without, 'commands that call the service without an example the fuzzer can run').toEqual([]);
    expect(all.size).toBeGreaterThan(70);
  });

  if (withRefresh) {
    it(`${REFRESH}: the cache and the candidates a TAB prints hold every invariant`, async () => {
      await fuzz(REFRESH, Object.keys(ID_SOURCES), (kind, g) => refreshOnce(world, kind, g), DEFAULT_RUNS * 2);
    }, 600_000);
  }

  for (const command of commands) {
    it(`${command}: every invariant holds against a hostile service`, async () => {
      await fuzz(command, all.get(command)!, (c, g) => runOnce(world, c, g), DEFAULT_RUNS);
    }, 600_000);
  }
});
