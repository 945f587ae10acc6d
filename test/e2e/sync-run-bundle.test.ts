// `adops assets sync` from its own CommonJS bundle, dist/bundle/sync-run.cjs (#37 session 5): bin/adops.js
// requires it when the entry decision (src/cli/route.ts) says 'sync', and it runs the sync as the whole CLI
// (main.js) does: the same rows, messages and exit code, on a first run (uploads) and a re-run (nothing to
// send). What it declines (a table, --query, argv it does not read plainly, a proxy, a terminal's stderr)
// the whole CLI runs. Which files a run loaded: a resolve hook (module.register, every ES module) and
// require.cache at exit (every CommonJS file), as test/e2e/fast-path-modules.test.ts reads them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ROOT, useSandboxChild } from '../helpers/cli.js';
import { writeLoadHooks } from '../helpers/load-hooks.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

const sandbox = useSandboxChild();
const MAIN = join(ROOT, 'dist', 'bundle', 'main.js');
let dir: string;
/** `node ...hookArgs bin/adops.js`: test/helpers/load-hooks.ts. */
let hookArgs: string[];

beforeAll(() => {
  dir = tempDir('adops-sync-run-');
  hookArgs = writeLoadHooks(dir, 'require-cache');
});

/** A directory of `n` distinct small PNGs named `<prefix>N.png`. */
function creatives(name: string, n: number, seed: number): string {
  const d = join(dir, name);
  mkdirSync(d);
  for (let i = 0; i < n; i++) writeFileSync(join(d, `${name}${i}.png`), png(seed + i, 1));
  return d;
}

const envOf = (config: string, extra: Record<string, string> = {}) =>
  baseEnv({ ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ADOPS_CONFIG_DIR: join(dir, config), ...extra });

/** bin/adops.js on args: its result and the dist/bundle files it loaded. */
function viaBin(args: string[], env: Record<string, string>) {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, [...hookArgs, BIN, ...args], {
    cwd: ROOT,
    env: { ...env, ADOPS_TEST_LOADED: log },
    encoding: 'utf8',
  });
  const files = [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((u) => u.includes('/dist/bundle/')).map((u) => u.replace(/.*\/dist\/bundle\//, ''));
  return { result: [r.status, r.stdout, r.stderr], files: files.filter((f) => f === 'main.js' || f === 'sync-run.cjs').sort() };
}

/** The whole CLI on the same argv: main.js run directly (it never takes the sync bundle). */
function viaMain(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, env, encoding: 'utf8' });
  return [r.status, r.stdout, r.stderr];
}

/**
 * Ids, durations and rates differ from run to run; the rest of what a run says must not. stdout's rows and stderr's
 * progress lines are compared as sets of lines: at --concurrency 2 one file's "ready" and the next file's "sending"
 * come in either order (a clean-clone CI saw them swapped between the two runs), and so may rows as files finish.
 */
const steady = (result: unknown[], d = '', prefix = '') =>
  result.map((x, i) => {
    if (typeof x !== 'string') return x;
    let text = x.replace(/ast_[0-9a-f]+/g, 'ast_…').replace(/in \d+\.\d s \([^)]*\)/g, 'in … (…)');
    if (d) text = text.replaceAll(d, 'DIR').replace(new RegExp(`\\b${prefix}(\\d)\\.png`, 'g'), 'f$1.png');
    return i > 0 ? text.split('\n').sort().join('\n') : text;
  });

describe('assets sync from dist/bundle/sync-run.cjs', () => {
  it('a first run (uploads) and a re-run (nothing to send): run by sync-run.cjs, as the whole CLI runs them', () => {
    // Each side its own files (distinct bytes) and config dir on one sandbox, so neither finds the other's Assets.
    const mine = creatives('b', 3, 10);
    const theirs = creatives('m', 3, 20);
    const args = (d: string) => ['assets', 'sync', d, '--output', 'ndjson', '--concurrency', '2'];
    const first = viaBin(args(mine), envOf('cfg-bundle'));
    expect(first.files, String(first.result[2])).toEqual(['sync-run.cjs']);
    const whole = viaMain(args(theirs), envOf('cfg-main'));
    expect(steady(first.result, mine, 'b')).toEqual(steady(whole, theirs, 'm'));
    expect(first.result[0]).toBe(0);
    expect(String(first.result[1]).match(/"uploaded"/g)).toHaveLength(3);

    // The re-run of the same directory: the very same rows either way (ids from the journal and the listing).
    const again = viaBin(args(mine), envOf('cfg-bundle'));
    expect(again.files, String(again.result[2])).toEqual(['sync-run.cjs']);
    expect(again.result).toEqual(viaMain(args(mine), envOf('cfg-bundle')));
    expect(String(again.result[1]).match(/"already there"/g)).toHaveLength(3);
  }, 180_000); // four runs of the binary: ~10 s on a quiet machine, ~50 s at load 28

  const declined: [string, string[], Record<string, string>?][] = [
    ['a table', ['--output', 'table']],
    ['--query (JMESPath)', ['--json', '--query', 'length(@)']],
    ['argv it does not read plainly', ['--json', '--no-such-flag']],
    ['a value commander checks', ['--json', '--concurrency', 'abc']],
    ['a proxy variable (loopback http goes direct)', ['--json'], { HTTPS_PROXY: 'http://127.0.0.1:9' }],
  ];
  for (const [why, extra, env] of declined) {
    it(`declines ${why}: the whole CLI runs it, as it would alone`, () => {
      const d = join(dir, 'declined');
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'x.png'), png(3, 3));
      const args = ['assets', 'sync', d, '--dry-run', ...extra];
      const r = viaBin(args, envOf('cfg-declined', env));
      // A proxy variable is seen by bin/adops.js before the bundle loads; the rest by the bundle, which declines.
      expect(r.files, String(r.result[2])).toEqual(env ? ['main.js'] : ['main.js', 'sync-run.cjs']);
      expect(r.result).toEqual(viaMain(args, envOf('cfg-declined', env)));
    }, 120_000);
  }
});
