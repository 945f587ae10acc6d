// What must not load on the fast paths (#16), checked by the list of modules
// the built binary loads, not by time: no zod, ora, @inquirer, cli-table3,
// undici or commander, nor the Intl formatting module (src/cli/output/values.ts),
// on a `--json` stored read, `--help`, a command's `--help` or `--version`.
// The list comes from documented hooks only: `node --require` of a preload that,
// at exit, writes require.cache (every CommonJS file required: bin/adops.js,
// route.cjs, quick.cjs, help-pages.cjs, fast-read.cjs; no entry starts the ESM
// loader, which the first test checks with a resolve hook). A file of dist/bundle counts as
// the sources it holds (dist/bundle/meta.json, scripts/build.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRegistry } from '../../src/commands/index.js';
import { helpFor } from '../../src/cli/help.js';
import { baseEnv, BIN, bundleOutputs, DEMO, ROOT, startSandboxChild, type BundleOutput, type SandboxChild } from '../helpers/cli.js';
import { esmHookArgs, writeLoadHooks } from '../helpers/load-hooks.js';
import { tempDir } from '../helpers/temp.js';

const FORBIDDEN = [
  'node_modules/zod/',
  'node_modules/ora/',
  'node_modules/@inquirer/',
  'node_modules/cli-table3/',
  'node_modules/undici/',
  'node_modules/commander/',
  'src/cli/output/values.ts',
];

let dir: string;
/** `node ...hookArgs bin/adops.js`: test/helpers/load-hooks.ts. */
let hookArgs: string[];
let bundle: Record<string, BundleOutput>;
let sandbox: SandboxChild;

beforeAll(async () => {
  bundle = bundleOutputs();
  dir = tempDir('adops-modules-');
  hookArgs = writeLoadHooks(dir, 'require-cache');
  sandbox = await startSandboxChild();
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

type Loaded = { sources: string[]; files: string[]; stdout: string; stderr: string; status: number | null };
/** Runs already made, by argv and environment: a test that asks what another already ran reads that run (one spawn each). */
const runs = new Map<string, Loaded>();

/** Every source the run loaded: a dist/bundle file as the sources it holds, any other file or builtin as itself. */
function loadedSources(args: string[], extraEnv: Record<string, string> = {}, { tty = false } = {}): Loaded {
  const key = JSON.stringify([args, extraEnv, tty]);
  const known = runs.get(key);
  if (known) return known;
  const run = loadOnce(args, extraEnv, tty);
  runs.set(key, run);
  return run;
}

function loadOnce(args: string[], extraEnv: Record<string, string>, tty: boolean): Loaded {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const env = baseEnv({ ADOPS_TEST_LOADED: log, ...readEnv(), ...extraEnv });
  const argv = [...hookArgs, BIN, ...args];
  // On a terminal: script(1) runs it on a pty (stdin, stdout and stderr).
  const r = tty
    ? spawnSync('script', ['-qec', [process.execPath, ...argv].map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: ROOT, env, encoding: 'utf8' })
    : spawnSync(process.execPath, argv, { cwd: ROOT, env, encoding: 'utf8' });
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  const bundleDir = pathToFileURL(join(ROOT, 'dist', 'bundle')).href + '/';
  const sources = urls.flatMap((url) => {
    if (!url.startsWith(bundleDir)) return [url.startsWith('file:') ? fileURLToPath(url) : url];
    const output = bundle[url.slice(bundleDir.length)];
    if (!output) throw new Error(`${url} is not in dist/bundle/meta.json: stale build?`);
    return output.inputs;
  });
  return { sources, files: urls.map((u) => u.replace(/.*\/(dist\/bundle|bin)\//, '$1/')), stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** The sandbox, its key, and a config dir of this file's. */
const readEnv = () => ({ ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ADOPS_CONFIG_DIR: join(dir, 'cfg') });

const forbiddenIn = (sources: string[]) => sources.filter((s) => FORBIDDEN.some((f) => s.includes(f)));

describe('modules loaded on the fast paths', () => {
  it('no entry starts the ESM loader: an ES module resolve hook sees bin/adops.js alone (so require.cache is every file)', () => {
    const esm = esmHookArgs(dir);
    const file = join(dir, 'esm-check.csv');
    writeFileSync(file, 'advertiserId,action,targetType,targetId\nacc_acme_a_001,pause,campaign,1\n');
    // main.js, fast-read.cjs, help-pages.cjs, apply-run.cjs: each bundle an entry decision can start.
    for (const args of [
      ['config', 'list'],
      ['observe', 'campaigns', '--json'],
      ['observe', 'campaigns', '--help'],
      ['mutations', 'apply', file, '--dry-run'],
    ]) {
      const log = join(dir, `esm-${Math.random().toString(36).slice(2)}.txt`);
      writeFileSync(log, '');
      const r = spawnSync(process.execPath, [...esm, BIN, ...args], { cwd: ROOT, env: baseEnv({ ADOPS_TEST_LOADED: log, ...readEnv() }), encoding: 'utf8' });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(readFileSync(log, 'utf8').split('\n').filter(Boolean), args.join(' ')).toEqual([pathToFileURL(BIN).href]);
    }
  });

  it('the check sees what a table loads (it can fail)', () => {
    const r = loadedSources(['observe', 'campaigns', '--limit', '1', '--output', 'table']);
    expect(r.status, r.stderr).toBe(0);
    const seen = forbiddenIn(r.sources);
    expect(seen.some((s) => s.includes('node_modules/cli-table3/'))).toBe(true);
    expect(seen.some((s) => s.endsWith('src/cli/output/values.ts'))).toBe(true);
  });

  it('a --json stored read loads bin (the launcher, its code-cache loader), route.cjs and fast-read.cjs only (no main.js), and none of the heavy modules', () => {
    const r = loadedSources(['observe', 'campaigns', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
    expect(forbiddenIn(r.sources)).toEqual([]);
    expect(r.files.filter((f) => !f.startsWith('node:')).sort()).toEqual([
      'bin/adops.js',
      'bin/code-cache.cjs',
      'dist/bundle/fast-read.cjs',
      'dist/bundle/route.cjs',
    ]);
  });

  it('so does an NDJSON stream of every page', () => {
    const r = loadedSources(['observe', 'campaigns', '--all', '--output', 'ndjson', '--limit', '100']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThan(100);
    expect(forbiddenIn(r.sources)).toEqual([]);
  });

  for (const args of [['--help'], ['--version'], ['version'], ['observe', 'campaigns', 'list', '--help'], ['help', 'sandbox', 'serve']]) {
    it(`adops ${args.join(' ')} starts no main.js and loads none of them`, () => {
      const r = loadedSources(args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
      expect(forbiddenIn(r.sources)).toEqual([]);
      expect(r.files.filter((f) => f.startsWith('dist/')).every((f) => f.endsWith('.cjs'))).toBe(true);
      // The --output choices come from the list of formats; no writer comes with it (#26).
      expect(r.sources.filter((s) => /src\/cli\/output\/writers\/(?!formats\.ts$)/.test(s))).toEqual([]);
      if (args[0] === '--help') expect(r.stdout).toContain('(table|json|ndjson|csv|markdown)');
    });
  }
});

// `adops mcp` (#38): the SDK and the server load when that command runs, never on a fast path; the whole CLI
// reads the command's definition (its toolsets' names, src/mcp/tool-def.ts) and nothing else of it.
describe('MCP code loads only for adops mcp', () => {
  const mcpSources = (sources: string[]) => sources.filter((s) => s.includes('node_modules/@modelcontextprotocol/') || s.includes('src/mcp/'));

  it('the check sees what `adops mcp` loads (it can fail)', () => {
    const r = loadedSources(['mcp']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const seen = mcpSources(r.sources);
    expect(seen.some((s) => s.includes('node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
    expect(seen.some((s) => s.endsWith('src/mcp/server.ts'))).toBe(true);
  });

  for (const args of [['--help'], ['--version'], ['mcp', '--help'], ['observe', 'campaigns', '--json']]) {
    it(`adops ${args.join(' ')} loads none of it`, () => {
      const r = loadedSources(args);
      expect(r.status, r.stderr).toBe(0);
      expect(mcpSources(r.sources)).toEqual([]);
    });
  }

  it('another command through the whole CLI loads only the toolsets of its definition', () => {
    const r = loadedSources(['observe', 'campaigns', '--live', 'acc_acme_a_001', '--json', '--limit', '1']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.files).toContain('dist/bundle/main.js');
    expect(mcpSources(r.sources).map((s) => s.replace(/.*\/src\//, 'src/'))).toEqual(['src/mcp/tool-def.ts']);
  });
});

describe('the stored reads from dist/bundle/fast-read.cjs (bin/adops.js requires it, #16)', () => {
  const MAIN = join(ROOT, 'dist', 'bundle', 'main.js');
  /** The whole CLI on the same argv: main.js run directly (it never takes the stored-read bundle). */
  const whole = (args: string[], extraEnv: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, env: baseEnv({ ...readEnv(), ...extraEnv }), encoding: 'utf8' });
    return [r.status, r.stdout, r.stderr];
  };
  const ranBy = (files: string[]) => files.filter((f) => f.startsWith('dist/bundle/')).sort();

  for (const [args, extraEnv] of [
    [['observe', 'campaigns', '--json']],
    [['observe', 'campaigns', 'list', '--json', '--limit', '3']],
    [['observe', 'ad-groups', '--output', 'ndjson', '--all', '--limit', '40']],
    [['observe', 'ads', '--output', 'csv', '--limit', '5', '--fields', 'id,name']],
    [['observe', 'ads', '--output', 'markdown', '--limit', '5', '--fields', 'id,name']],
    [['observe', 'campaigns', '--output', 'markdown', '--all', '--limit', '40']],
    [['observe', 'campaigns', '--limit', '2']],
    [['observe', 'campaigns', '--json', '--fields', 'nope', '--limit', '2']],
    [['observe', 'campaigns', '--json', '--advertiser', 'nope']],
    [['observe', 'campaigns', '--limit', '501', '-f', 'cursor=']],
    [['observe', 'creatives', '--json', '--cursor', 'not-a-cursor']],
    [['observe', 'campaigns', '--output', 'ndjson'], { ADOPS_API_KEY: DEMO.revoked }],
    [['observe', 'campaigns', '--json'], { ADOPS_API_KEY: '' }],
    [['observe', 'campaigns', '--json'], { CI: 'true' }],
  ] as [string[], Record<string, string>?][]) {
    it(`adops ${args.join(' ')}${extraEnv ? ` (${Object.keys(extraEnv).join(', ')})` : ''}: run by fast-read.cjs, as the whole CLI runs it`, () => {
      const r = loadedSources(args, extraEnv);
      expect(ranBy(r.files), r.stderr).toEqual(['dist/bundle/fast-read.cjs', 'dist/bundle/route.cjs']);
      expect([r.status, r.stdout, r.stderr]).toEqual(whole(args, extraEnv));
    });
  }

  for (const [why, args, extraEnv] of [
    ['--query (JMESPath)', ['observe', 'campaigns', '--json', '--query', 'length(@)']],
    ['a table', ['observe', 'campaigns', '--output', 'table', '--limit', '2']],
    ['a live read', ['observe', 'campaigns', '--live', 'acc_acme_a_001', '--json', '--limit', '2']],
    ['a proxy variable (loopback http goes direct)', ['observe', 'campaigns', '--json', '--limit', '2'], { HTTPS_PROXY: 'http://127.0.0.1:9' }],
    ['argv it does not read plainly', ['observe', 'campaigns', '--json', '--no-such-flag']],
    ['a value commander checks', ['observe', 'campaigns', '--json', '--limit', 'abc']],
    ['another command', ['observe', 'insights', '--since', '2026-09-01', '--until', '2026-09-02', '--json']],
  ] as [string, string[], Record<string, string>?][]) {
    it(`declines ${why}: the whole CLI runs it, as it would alone`, () => {
      const r = loadedSources(args, extraEnv);
      expect(ranBy(r.files), r.stderr).toContain('dist/bundle/main.js');
      // A proxy variable is seen by bin/adops.js before the bundle loads; the rest by the bundle.
      expect(ranBy(r.files).includes('dist/bundle/fast-read.cjs')).toBe(extraEnv === undefined);
      expect([r.status, r.stdout, r.stderr]).toEqual(whole(args, extraEnv));
    });
  }

  it.skipIf(spawnSync('script', ['--version']).status !== 0)('declines on a terminal (a spinner or a prompt may be wanted), even with --json', () => {
    const r = loadedSources(['observe', 'campaigns', '--json', '--limit', '1'], {}, { tty: true });
    expect(r.status, r.stdout).toBe(0);
    expect(ranBy(r.files)).toContain('dist/bundle/main.js');
    // bin/adops.js sees it without loading the bundle.
    expect(ranBy(r.files)).not.toContain('dist/bundle/fast-read.cjs');
    expect(r.stdout).toContain('"id"');
  });
});

describe('help pages rendered at build time (dist/bundle/help-pages.cjs)', () => {
  it('are, for every group and command, what the registry renders now', () => {
    const { helpPages } = createRequire(import.meta.url)(join(ROOT, 'dist', 'bundle', 'help-pages.cjs')) as {
      helpPages: (first: string) => Record<string, string>;
    };
    const registry = getRegistry();
    const paths = [...registry.groups, ...registry.commands].map((x) => x.path);
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) expect(helpPages(path[0]!)[path.join(' ')], path.join(' ')).toBe(helpFor(registry, path, 'unused').text);
    expect(helpPages('constructor')).toEqual({});
  });

  it('bin/adops.js answers a command help from them as main.js would from the registry, and an unknown one as before', () => {
    const env = baseEnv({ ADOPS_CONFIG_DIR: join(dir, 'cfg') });
    // Both act on one entry decision (src/cli/route.ts): the launcher's answers and main.js's are the same.
    for (const args of [
      ['observe', 'campaigns', 'list', '--help'],
      ['help', 'mutations'],
      ['observe', 'campaigns', '--limit', '5', '-h'],
      ['constructor', '--help'],
      ['--version'],
      ['--profile', 'help', '-V'],
      [],
      ['--json'],
      ['--frobnicate'],
      ['help', '--json'],
      ['-o', 'json', 'help', 'sandbox'],
      ['observe', 'campaigns', '--version'],
    ]) {
      const quick = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, env, encoding: 'utf8' });
      const full = spawnSync(process.execPath, [join(ROOT, 'dist', 'bundle', 'main.js'), ...args], { cwd: ROOT, env, encoding: 'utf8' });
      expect([quick.status, quick.stdout, quick.stderr], args.join(' ')).toEqual([full.status, full.stdout, full.stderr]);
    }
  });
});
