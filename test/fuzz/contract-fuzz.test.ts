// The contract fuzzer (issue #34): every command of the registry that calls an
// operation, run from its own examples against a service that breaks its
// contract in every way the contract can be broken (test/fuzz/README.md).
// `npm test` runs a fixed budget (FUZZ_RUNS runs per command, default below);
// `npm run fuzz -- --runs N` runs longer and ends with `fuzz: C commands, R runs, F failures`.
// A failure prints its seed and path, and the command that replays that run.
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRegistry } from '../../src/commands/index.js';
import { tempDir } from '../helpers/temp.js';
import { casesOf, writeFixtures } from './cases.js';
import { commandProperty, fuzzParameters, type RunWorld } from './harness.js';
import { StandIn } from './stand-in.js';

/** Runs per command in `npm test`: all commands within about 30 s on two cores. */
const DEFAULT_RUNS = 4;

const tree = getRegistry();
const all = casesOf(tree);
const only = process.env.FUZZ_COMMAND;
const commands = [...all.keys()].filter((c) => only === undefined || c === only);
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
  if (process.env.FUZZ_REPORT) appendFileSync(process.env.FUZZ_REPORT, `${JSON.stringify({ commands: commands.length, runs, failures })}\n`);
});

describe('the contract fuzzer', () => {
  it('covers every command that calls an operation, each with at least one runnable example', () => {
    const without = [...all].filter(([, cases]) => cases.length === 0).map(([c]) => c);
    expect(without, 'commands that call the service without an example the fuzzer can run').toEqual([]);
    expect(all.size).toBeGreaterThan(70);
  });

  for (const command of commands) {
    it(`${command}: every invariant holds against a hostile service`, async () => {
      const cases = all.get(command)!;
      const params = fuzzParameters(DEFAULT_RUNS);
      const result = await fc.check(
        commandProperty(world, cases, () => runs++),
        { ...params, endOnFailure: true },
      );
      if (result.failed) {
        failures++;
        const replay = `npm run fuzz -- --command '${command}' --seed ${result.seed} --path '${result.counterexamplePath ?? ''}'`;
        throw new Error(
          `${command}: seed ${result.seed}, path ${result.counterexamplePath}\nreplay: ${replay}\n${String(result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance)}`,
        );
      }
    }, 120_000);
  }
});
