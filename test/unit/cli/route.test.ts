// The one entry decision (src/cli/route.ts, #26): which of version, a help page,
// the stored-read bundle or the full CLI answers an argv, in an environment, with
// stderr a terminal or not. bin/adops.js, main.ts and the stored-read bundle all
// act on this answer; the cases that must defer to the full CLI (commander) are
// as much the point as the fast ones.
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS, longName } from '../../../src/cli/registry.js';
import { route, type Route } from '../../../src/cli/route.js';
import { readRegistry } from '../../../src/commands/observe/fast-read.js';

type Env = Record<string, string | undefined>;

const top = (extra: Partial<Extract<Route, { kind: 'help' }>> = {}): Route => ({ kind: 'help', words: [], tree: false, json: false, ...extra });
const page = (...words: string[]): Route => ({ kind: 'help', words, tree: false, json: false });
const READ = ['observe', 'campaigns', '--json'];
const SYNC = ['assets', 'sync', './creatives', '--output', 'ndjson'];
const APPLY = ['mutations', 'apply', 'changes.csv', '--output', 'ndjson'];

// [why, argv, env, stderr a terminal, decision]
const CASES: Array<[string, string[], Env, boolean, Route]> = [
  // version
  ['--version', ['--version'], {}, false, { kind: 'version' }],
  ['-V', ['-V'], {}, true, { kind: 'version' }],
  ['--version after a global option and its value', ['--profile', 'work', '--version'], {}, false, { kind: 'version' }],
  ['--version wins over --help', ['--help', '--version'], {}, false, { kind: 'version' }],
  ["--version after a command's words: commander's", ['config', 'get', '--version'], {}, false, { kind: 'cli' }],
  ["--version after observe's words: commander's, never the stored-read bundle", ['observe', 'campaigns', '-V'], {}, false, { kind: 'cli' }],
  ['`adops version` alone, as gh: the same answer as --version (#29)', ['version'], {}, false, { kind: 'version' }],
  ['`adops version --json`: the command, in the full CLI', ['version', '--json'], {}, false, { kind: 'cli' }],
  ['`adops version --help`: its help page', ['version', '--help'], {}, false, page('version')],
  // help pages
  ['no argv: the top page', [], {}, false, top()],
  ['--help', ['--help'], {}, false, top()],
  ['-h', ['-h'], {}, true, top()],
  ['help', ['help'], {}, false, top()],
  ['a group', ['help', 'sandbox'], {}, false, page('sandbox')],
  ['a command', ['observe', 'campaigns', 'list', '--help'], {}, false, page('observe', 'campaigns', 'list')],
  ['a command with options before -h', ['observe', 'campaigns', '--limit', '5', '-h'], {}, false, page('observe', 'campaigns', '5')],
  ['a global value that reads like a word is skipped', ['--profile', 'help', 'observe', '--help'], {}, false, page('observe')],
  ['the tree', ['help', '--json'], {}, false, top({ tree: true, json: true })],
  ['the tree, json as a global value', ['-o', 'json', 'help'], {}, false, top({ tree: true, json: true })],
  ['--json alone: the top page from the registry', ['--json'], {}, false, top({ json: true })],
  ["an unknown command's help: main.ts says it is unknown", ['nope', '--help'], {}, false, page('nope')],
  ['an unknown flag and no command word: the top page, as main.js answered it', ['--frobnicate'], {}, false, top()],
  // shell completion: before any help or version of its words
  ['__complete', ['__complete', 'observe', '--help'], {}, true, { kind: 'complete' }],
  ['__complete --version', ['__complete', '--version'], {}, false, { kind: 'complete' }],
  ['__complete-describe', ['__complete-describe', 'obs'], {}, false, { kind: 'complete' }],
  ['__complete-refresh', ['__complete-refresh', 'advertiser', '--profile', 'p'], {}, false, { kind: 'complete' }],
  // stored reads
  ['a stored read on a pipe', READ, {}, false, { kind: 'stored-read' }],
  ['a stored read on a terminal in CI', READ, { CI: 'true' }, true, { kind: 'stored-read' }],
  ['a stored read on a terminal with CI=1', READ, { CI: '1' }, true, { kind: 'stored-read' }],
  ['NO_PROXY alone sends nothing through a proxy', READ, { NO_PROXY: '*' }, false, { kind: 'stored-read' }],
  ["flags it does not know: the bundle's plain parse defers them (below)", [...READ, '--no-such-flag'], {}, false, { kind: 'stored-read' }],
  // deferred to the full CLI
  ["a terminal's stderr outside CI (a spinner, a prompt)", READ, {}, true, { kind: 'cli' }],
  ['a terminal with CI=0', READ, { CI: '0' }, true, { kind: 'cli' }],
  ['a terminal with CI=false', READ, { CI: 'False' }, true, { kind: 'cli' }],
  ['a terminal with CI empty', READ, { CI: '' }, true, { kind: 'cli' }],
  ['HTTPS_PROXY', READ, { HTTPS_PROXY: 'http://proxy.corp:3128' }, false, { kind: 'cli' }],
  ['https_proxy', READ, { https_proxy: 'http://proxy.corp:3128' }, false, { kind: 'cli' }],
  ['HTTP_PROXY', READ, { HTTP_PROXY: 'http://proxy.corp:3128' }, false, { kind: 'cli' }],
  ['http_proxy set empty', READ, { http_proxy: '' }, false, { kind: 'cli' }],
  ['a proxy in CI', READ, { CI: 'true', HTTPS_PROXY: 'http://proxy.corp:3128' }, false, { kind: 'cli' }],
  [
    "--help after --: an argument (the bundle's plain parse defers -- to commander, below)",
    ['observe', 'campaigns', '--', '--help'],
    {},
    false,
    { kind: 'stored-read' },
  ],
  ["an unknown flag before the words: commander's", ['--frobnicate', 'observe', 'campaigns'], {}, false, { kind: 'cli' }],
  ["an option before observe's words", ['--json', 'observe', 'campaigns'], {}, false, { kind: 'cli' }],
  ['another command', ['config', 'get', 'output'], {}, false, { kind: 'cli' }],
  ['another command with an unknown flag', ['mutations', 'start', '--frobnicate'], {}, false, { kind: 'cli' }],
  ['a bare group: the runner prints its page from the registry', ['sandbox'], {}, false, { kind: 'cli' }],
  // assets sync: its own bundle (sync-run.cjs, #37) under the stored read's conditions
  ['a sync on a pipe', SYNC, {}, false, { kind: 'sync' }],
  ['a sync on a terminal in CI', SYNC, { CI: 'true' }, true, { kind: 'sync' }],
  ["a sync on a terminal's stderr outside CI (a prompt, a progress bar)", SYNC, {}, true, { kind: 'cli' }],
  ['a sync through a proxy', SYNC, { HTTPS_PROXY: 'http://proxy.corp:3128' }, false, { kind: 'cli' }],
  ["-V after the sync's words: commander's", [...SYNC, '-V'], {}, false, { kind: 'cli' }],
  ['assets upload: the whole CLI', ['assets', 'upload', 'a.png'], {}, false, { kind: 'cli' }],
  ["an option before the sync's words", ['--json', 'assets', 'sync', 'dir'], {}, false, { kind: 'cli' }],
  // mutations apply: its own bundle (apply-run.cjs, #37 session 6) under the same conditions
  ['an apply on a pipe', APPLY, {}, false, { kind: 'apply' }],
  ['an apply on a terminal in CI', APPLY, { CI: 'true' }, true, { kind: 'apply' }],
  ["an apply on a terminal's stderr outside CI (a prompt, a spinner)", APPLY, {}, true, { kind: 'cli' }],
  ['an apply through a proxy', APPLY, { HTTPS_PROXY: 'http://proxy.corp:3128' }, false, { kind: 'cli' }],
  ["-V after the apply's words: commander's", [...APPLY, '-V'], {}, false, { kind: 'cli' }],
  ["--help after the apply's words: its page", [...APPLY, '--help'], {}, false, page('mutations', 'apply', 'changes.csv')],
  ['mutations start: the whole CLI', ['mutations', 'start', '--input', 'c.json'], {}, false, { kind: 'cli' }],
  ["an option before the apply's words", ['--json', 'mutations', 'apply', 'changes.csv'], {}, false, { kind: 'cli' }],
];

describe('route(argv, env, stderrIsTTY)', () => {
  for (const [why, argv, env, tty, decision] of CASES) {
    it(`${why}: adops ${argv.join(' ')}${Object.keys(env).length ? ` (${JSON.stringify(env)})` : ''}${tty ? ' on a terminal' : ''} -> ${decision.kind}`, () => {
      expect(route(argv, env, () => tty)).toEqual(decision);
    });
  }

  it("skips the value of every global option that takes one (`--profile help --version` is the version, not help's page)", () => {
    const valued = GLOBAL_OPTIONS.filter((o) => /[<[]/.test(o.flags));
    const flags = valued.flatMap((o) => [`--${longName(o.flags)}`, ...(/^-[a-zA-Z],/.test(o.flags) ? [o.flags.slice(0, 2)] : [])]);
    expect(flags).toContain('-o');
    expect(flags).toContain('--request-timeout');
    for (const flag of flags)
      expect(
        route([flag, 'help', '--version'], {}, () => false),
        flag,
      ).toEqual({ kind: 'version' });
    // A flag without a value does not take the word after it: `help` is the help word.
    expect(route(['--debug', 'help', '--version'], {}, () => false)).toEqual(top());
  });

  it('asks whether stderr is a terminal only for a stored read outside CI without a proxy (node:tty costs the launcher a few ms)', () => {
    const asked: string[][] = [];
    const ask = (argv: string[], env: Env = {}) =>
      route(argv, env, () => {
        asked.push(argv);
        return false;
      });
    ask(['--version']);
    ask(['--help']);
    ask(['observe', 'campaigns', '--help']);
    ask(['config', 'get', 'output']);
    ask(READ, { CI: 'true' });
    ask(READ, { HTTPS_PROXY: 'http://proxy.corp:3128' });
    expect(asked).toEqual([]);
    ask(READ);
    expect(asked).toEqual([READ]);
  });
});

/** The stored-read bundle's view of a run: its streams (terminals or pipes) and environment. */
function readEnvironment(env: Env, { stdoutIsTTY = false, stderrIsTTY = false } = {}) {
  const stream = (isTTY: boolean) => Object.assign(new PassThrough(), { isTTY });
  // A config dir that does not exist (nothing is written): the defaults.
  const config = join(tmpdir(), `adops-route-test-absent-${process.pid}`);
  return { stdin: stream(false), stdout: stream(stdoutIsTTY), stderr: stream(stderrIsTTY), env: { ADOPS_CONFIG_DIR: config, ...env } };
}

describe('the stored-read bundle (readRegistry) runs only the shapes it reads plainly, and defers the rest', () => {
  it('runs a stored list of the plain shape', () => {
    for (const argv of [READ, ['observe', 'campaigns', 'list', '--json', '--limit', '3'], ['observe', 'ads', '--output', 'csv', '--fields', 'id,name']]) {
      expect(
        readRegistry(argv, readEnvironment({}))?.commands.map((c) => c.path.join(' ')),
        argv.join(' '),
      ).toContain(`observe ${argv[1]} list`);
    }
  });

  for (const [why, argv, env, terminals] of [
    ['an unknown flag', [...READ, '--no-such-flag']],
    ['an unknown short flag', [...READ, '-Z']],
    ['a value commander refuses', [...READ, '--limit', 'abc']],
    ['--', [...READ, '--', 'x']],
    ['--help after --', [...READ, '--', '--help']],
    ['a value starting with -', [...READ, '--limit', '-1']],
    ['--query (JMESPath is not bundled)', [...READ, '--query', 'length(@)']],
    ['a table (cli-table3 is not bundled)', ['observe', 'campaigns', '--output', 'table']],
    ['an unknown format', ['observe', 'campaigns', '--output', 'yaml']],
    ['a live read', [...READ, '--live', 'acc_acme_a_001']],
    ['another observe command', ['observe', 'insights', '--json']],
    ['an unknown resource', ['observe', 'nope', '--json']],
    ['help', [...READ, '--help']],
    ['a proxy variable', READ, { HTTPS_PROXY: 'http://proxy.corp:3128' }],
    ["a terminal's stderr outside CI", READ, {}, { stderrIsTTY: true }],
  ] as Array<[string, string[], Env?, { stderrIsTTY?: boolean }?]>) {
    it(`defers ${why}: adops ${argv.join(' ')}`, () => {
      expect(readRegistry(argv, readEnvironment(env ?? {}, terminals))).toBeUndefined();
    });
  }
});
