// `adops mutations apply FILE` from its own CommonJS bundle, dist/bundle/apply-run.cjs (#37 session 6): bin/adops.js
// requires it when the entry decision (src/cli/route.ts) says 'apply', and it runs the file as the whole CLI
// (main.js) does: the same rows, messages, journal and exit code, on a first run (sends), a re-run (every row sent
// by the earlier run), a dry run, a file refused before anything is sent and rows the service refuses. What it
// declines (the live reads of --preview/--undo-file/--skip-unchanged, a table, --query, argv it does not read
// plainly, a proxy) the whole CLI runs, as it would alone. Which files a run loaded: a resolve hook
// (module.register, every ES module) and require.cache at exit (every CommonJS file), as sync-run-bundle reads them.
// The sandbox runs in this worker (helpers/demo-sandbox.ts): every child is awaited, never waited for in spawnSync.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ROOT } from '../helpers/cli.js';
import { useDemoSandbox } from '../helpers/demo-sandbox.js';
import { writeLoadHooks } from '../helpers/load-hooks.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { spawnAsync } from '../helpers/spawn-async.js';
import { tempDir } from '../helpers/temp.js';

const sandbox = useDemoSandbox();
const ACC = 'acc_acme_a_001';
let dir: string;
/** `node ...hookArgs bin/adops.js`: test/helpers/load-hooks.ts. */
let hookArgs: string[];

beforeAll(() => {
  dir = tempDir('adops-apply-run-');
  hookArgs = writeLoadHooks(dir, 'require-cache');
});

const envOf = (config: string, extra: Record<string, string> = {}) =>
  baseEnv({ ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ADOPS_CONFIG_DIR: join(dir, config), ...extra });

/** A file of `n` renames (campaigns 1000..), `changes.csv` in its own directory `side` (each side's journal is its own). */
function changes(side: string, n: number, tag: string): string {
  const d = join(dir, side);
  mkdirSync(d, { recursive: true });
  const file = join(d, 'changes.csv');
  const rows = Array.from({ length: n }, (_, i) => `${ACC},rename,campaign,${1000 + i},"${tag}, week ${i}"`);
  writeFileSync(file, ['advertiserId,action,targetType,targetId,name', ...rows].join('\n') + '\n');
  return file;
}

type Result = [number | null, string, string];

/** bin/adops.js on args: its result and the dist/bundle files it loaded (main.js, apply-run.cjs). */
async function viaBin(args: string[], env: Record<string, string>): Promise<{ result: Result; files: string[] }> {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const r = await spawnAsync(process.execPath, [...hookArgs, BIN, ...args], {
    cwd: ROOT,
    env: { ...env, ADOPS_TEST_LOADED: log },
    timeout: 60_000,
  });
  const files = [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((u) => u.includes('/dist/bundle/')).map((u) => u.replace(/.*\/dist\/bundle\//, ''));
  return { result: [r.status, r.stdout, r.stderr], files: files.filter((f) => f === 'main.js' || f === 'apply-run.cjs').sort() };
}

/**
 * The whole CLI on the same argv, in this process (helpers/run-in-process.ts: the whole registry, as main.js runs
 * it; it never takes the apply bundle). What is specific to bin/adops.js and apply-run.cjs is the other side, spawned.
 */
async function viaMain(args: string[], env: Record<string, string>): Promise<Result> {
  const r = await runAdopsInProcess(args, { env, timeoutMs: 60_000 });
  return [r.code, r.stdout, r.stderr];
}

/**
 * Mutation ids, keys and times differ from run to run, and each side has its own directory; the rest of what a run
 * says must not. Lines are compared as sets: at --concurrency 2 two rows' answers may come in either order (the
 * summary is written in row order, the journal's lines as answers come).
 */
const steady = (text: string, d: string) =>
  text
    .replaceAll(d, 'DIR')
    .replace(/mut_[0-9a-f]+/g, 'mut_…')
    .replace(/"idempotencyKey":"[^"]+"/g, '"idempotencyKey":"…"')
    .replace(/"firstSentAt":\d+/g, '"firstSentAt":…')
    .split('\n')
    .sort()
    .join('\n');
const steadyResult = ([code, out, err]: Result, d: string) => [code, steady(out, d), steady(err, d)];
const journalOf = (file: string, d: string) => steady(readFileSync(`${file}.adops-journal.ndjson`, 'utf8'), d);

describe('mutations apply from dist/bundle/apply-run.cjs', () => {
  it('a first run (every row sent) and a re-run (every row sent earlier): run by apply-run.cjs, as the whole CLI runs them', async () => {
    // Each side its own file and journal (the same rows, so the same row ids) on one sandbox.
    const mine = changes('bundle-run', 3, 'Bundle');
    const theirs = changes('main-run', 3, 'Bundle');
    const args = (f: string) => ['mutations', 'apply', f, '--output', 'ndjson', '--concurrency', '2'];
    const first = await viaBin(args(mine), envOf('cfg-bundle'));
    expect(first.files, first.result[2]).toEqual(['apply-run.cjs']);
    const whole = await viaMain(args(theirs), envOf('cfg-main'));
    expect(steadyResult(first.result, join(dir, 'bundle-run'))).toEqual(steadyResult(whole, join(dir, 'main-run')));
    expect(first.result[0]).toBe(0);
    expect(first.result[1].match(/"sent":"this run"/g)).toHaveLength(3);
    expect(journalOf(mine, join(dir, 'bundle-run'))).toEqual(journalOf(theirs, join(dir, 'main-run')));

    // The re-run of each file: the very same rows either way (ids and keys from the journal), nothing sent again.
    const again = await viaBin(args(mine), envOf('cfg-bundle'));
    expect(again.files, again.result[2]).toEqual(['apply-run.cjs']);
    const wholeAgain = await viaMain(args(theirs), envOf('cfg-main'));
    expect(steadyResult(again.result, join(dir, 'bundle-run'))).toEqual(steadyResult(wholeAgain, join(dir, 'main-run')));
    expect(again.result[1].match(/"sent":"earlier run"/g)).toHaveLength(3);
    expect(journalOf(mine, join(dir, 'bundle-run'))).toEqual(journalOf(theirs, join(dir, 'main-run')));
    // What the bundle recorded, main.js resumes from (and the other way): one journal format.
    expect((await viaMain(args(mine), envOf('cfg-bundle')))[1]).toBe(again.result[1]);
  }, 120_000);

  // Run by the bundle, each: a dry run; a file refused before anything is sent (exit 2, no journal written);
  // rows the service refuses (an observe-only key: 403 each, the refusal's exit code).
  const covered: [string, (f: string) => string[], Record<string, string>?][] = [
    ['a dry run', (f) => ['mutations', 'apply', f, '--dry-run', '--json']],
    ['rows the service refuses (403)', (f) => ['mutations', 'apply', f, '--output', 'csv', '--concurrency', '1'], { ADOPS_API_KEY: DEMO.observeOnly }],
  ];
  for (const [why, argsOf, env] of covered) {
    it(`${why}: run by apply-run.cjs, as the whole CLI runs it`, async () => {
      const side = why.replace(/\W+/g, '-');
      const mine = changes(`${side}-bundle`, 2, 'Covered');
      const theirs = changes(`${side}-main`, 2, 'Covered');
      const r = await viaBin(argsOf(mine), envOf('cfg-covered', env));
      expect(r.files, r.result[2]).toEqual(['apply-run.cjs']);
      const whole = await viaMain(argsOf(theirs), envOf('cfg-covered', env));
      expect(steadyResult(r.result, join(dir, `${side}-bundle`))).toEqual(steadyResult(whole, join(dir, `${side}-main`)));
      if (env) {
        expect(r.result[0]).not.toBe(0);
        expect(journalOf(mine, join(dir, `${side}-bundle`))).toEqual(journalOf(theirs, join(dir, `${side}-main`)));
      }
    }, 60_000);
  }

  it('a file refused before anything is sent (exit 2 naming the bad lines; no FILE; no such file): run by apply-run.cjs, as the whole CLI runs it', async () => {
    const d = join(dir, 'refused');
    mkdirSync(d);
    const file = join(d, 'bad.csv');
    writeFileSync(file, ['advertiserId,action,targetType,targetId,name', `${ACC},explode,campaign,1000,x`, `${ACC},rename,campaign,,y`].join('\n') + '\n');
    const r = await viaBin(['mutations', 'apply', file, '--json'], envOf('cfg-refused'));
    expect(r.files, r.result[2]).toEqual(['apply-run.cjs']);
    expect(r.result).toEqual(await viaMain(['mutations', 'apply', file, '--json'], envOf('cfg-refused')));
    expect(r.result[0]).toBe(2);
    // No FILE, and a FILE that is not there: the runner's and the row reader's usage errors, the same either way.
    for (const args of [
      ['mutations', 'apply', '--json'],
      ['mutations', 'apply', join(d, 'absent.csv'), '--json'],
    ]) {
      const missing = await viaBin(args, envOf('cfg-refused'));
      expect(missing.files, missing.result[2]).toEqual(['apply-run.cjs']);
      expect(missing.result).toEqual(await viaMain(args, envOf('cfg-refused')));
      expect(missing.result[0]).toBe(2);
    }
  }, 60_000);

  const declined: [string, string[], Record<string, string>?][] = [
    ['--preview (a live read of every target)', ['--preview', '--json']],
    ['--undo-file (a live read first)', ['--dry-run', '--json', '--undo-file', 'undo.csv']],
    ['--skip-unchanged (a live read first)', ['--dry-run', '--json', '--skip-unchanged']],
    ['a table', ['--dry-run', '--output', 'table']],
    ['--query (JMESPath)', ['--dry-run', '--json', '--query', 'length(@)']],
    ['argv it does not read plainly', ['--dry-run', '--json', '--no-such-flag']],
    ['a value commander checks', ['--dry-run', '--json', '--concurrency', 'abc']],
    ['a proxy variable (loopback http goes direct)', ['--dry-run', '--json'], { HTTPS_PROXY: 'http://127.0.0.1:9' }],
  ];
  for (const [why, extra, env] of declined) {
    it(`declines ${why}: the whole CLI runs it, as it would alone`, async () => {
      const file = changes('declined', 2, 'Declined');
      const args = ['mutations', 'apply', file, ...extra];
      const r = await viaBin(args, envOf('cfg-declined', env));
      // A proxy variable is seen by bin/adops.js before the bundle loads; the rest by the bundle, which declines.
      expect(r.files, r.result[2]).toEqual(env ? ['main.js'] : ['apply-run.cjs', 'main.js']);
      expect(r.result).toEqual(await viaMain(args, envOf('cfg-declined', env)));
    }, 60_000);
  }
});
