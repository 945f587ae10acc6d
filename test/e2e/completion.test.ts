// Shell completion: `adops __complete` (ids from the service through the
// profile, cached per profile and organization; silent and quick when the
// service is dead; fixed choices offline) and the generated scripts used in
// real bash, zsh and fish.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO, ensureBuilt, ROOT, runAdops, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: SandboxChild;
const cfg = tempConfigDir();
const bin = tempDir('adops-bin-');
const work = tempDir('adops-complete-');
// A generous bound: the machine running the suite is loaded; the dead-service test checks the real one.
const SLOW = { ADOPS_COMPLETE_TIMEOUT_MS: '8000' };
const env = (over: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ...SLOW, ...over });
const complete = (words: string[], over: Record<string, string> = {}) => runAdops(['__complete', ...words], { env: env(over) });
const lines = (s: string) => s.split('\n').filter(Boolean);
const ids: Record<string, string> = {};

/** A loopback service that answers every list with `rows`, counting requests; or never answers (`hang`). */
async function stubService(rows: Array<Record<string, unknown>>, hang = false): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    if (hang) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: rows }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

beforeAll(async () => {
  ensureBuilt();
  writeFileSync(join(bin, 'adops'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'adops'), 0o755);
  for (const f of ['creative-1.png', 'creative-2.jpg', 'notes.txt']) writeFileSync(join(work, f), 'x');
  mkdirSync(join(work, 'creatives'));
  sandbox = await startSandboxChild([]);
  const cli = async (args: string[]) => {
    const r = await runAdops([...args, '-o', 'json'], { env: env() });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  await cli(['brands', 'create', '--slug', 'tab-brand', '--name', 'Tab Brand']);
  await cli(['plans', 'create', '--slug', 'tab-plan', '--name', 'Tab Plan', '--currency', 'USD']);
  await cli(['skills', 'create', '--slug', 'tab-skill', '--name', 'Tab Skill', '--body', '# x']);
  ids.asset = String((await cli(['assets', 'reserve', '--filename', 'tab.png'])).id);
  const campaign = (await cli(['observe', 'campaigns', '--advertiser', 'acc_acme_c_001', '--limit', '1'])) as unknown as Array<{ id: string }>;
  ids.mutation = String((await cli(['mutations', 'pause', 'acc_acme_c_001', '--campaign', campaign[0]!.id])).id);
}, 90_000);
afterAll(async () => {
  await sandbox?.stop();
});

describe('adops __complete', () => {
  it('completes each kind of id from the service', async () => {
    const cases: Array<[string[], string]> = [
      [['observe', 'campaigns', '--live', 'acc_acme_'], 'acc_acme_a_001'],
      [['mutations', 'pause', ''], 'acc_acme_c_001'],
      [['assets', 'upload', 'x.png', '--register', 'acc_'], 'acc_acme_b_001'],
      [['brands', 'get', 'tab'], 'tab-brand'],
      [['brands', 'personas', 'list', ''], 'tab-brand'],
      [['plans', 'get', ''], 'tab-plan'],
      [['plans', 'line-items', 'add', 'tab-'], 'tab-plan'],
      [['skills', 'get', ''], 'tab-skill'],
      [['assets', 'get', ''], ids.asset!],
      [['mutations', 'get', 'mut_'], ids.mutation!],
    ];
    for (const [words, want] of cases) {
      const r = await complete(words);
      expect(r.code).toBe(0);
      expect(lines(r.stdout), words.join(' ')).toContain(want);
      for (const l of lines(r.stdout)) expect(l.startsWith(words.at(-1)!), words.join(' ')).toBe(true);
      expect(r.stderr).toBe('');
      expect(r.stdout).not.toContain(DEMO.full);
    }
    // Advertisers are distinct: one line each.
    const adv = lines((await complete(['observe', 'drift', ''])).stdout);
    expect(adv.length).toBe(new Set(adv).size);
    // Another organization's key sees its own ids only.
    const globex = lines((await complete(['observe', 'drift', ''], { ADOPS_API_KEY: DEMO.globex })).stdout);
    expect(globex.length).toBeGreaterThan(0);
    for (const a of globex) expect(a).toMatch(/^acc_globex_/);
  });

  it('fixed choices, subcommands and flags need no service; -o offers output formats', async () => {
    const offline = { ADOPS_BASE_URL: 'http://127.0.0.1:9', ADOPS_API_KEY: 'acr_unused_0000' };
    expect(lines((await complete(['-o', ''], offline)).stdout)).toEqual(['table', 'json', 'ndjson', 'csv', 'markdown']);
    expect(lines((await complete(['observe', 'campaigns', '-o', 'nd'], offline)).stdout)).toEqual(['ndjson']);
    expect(lines((await complete(['observe', 'campaigns', '--output=c'], offline)).stdout)).toEqual(['--output=csv']);
    expect(lines((await complete(['observe', 'campaigns', '--status', ''], offline)).stdout)).toEqual(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED']);
    expect(lines((await complete(['obs'], offline)).stdout)).toEqual(['observe']);
    expect(lines((await complete(['observe', ''], offline)).stdout)).toContain('drift');
    expect(lines((await complete(['observe', 'drift', 'acc_1', '--'], offline)).stdout)).toEqual(
      expect.arrayContaining(['--level', '--compare', '--exit-code', '--output']),
    );
    expect(lines((await complete(['completion', ''], offline)).stdout)).toEqual(['bash', 'zsh', 'fish']);
    // File arguments hand over to the shell's file names.
    for (const words of [
      ['assets', 'upload', 'cre'],
      ['mutations', 'apply', ''],
      ['plans', 'apply', ''],
      ['api', 'POST', '/x', '--input', ''],
      ['sandbox', 'serve', '--fixtures', ''],
      ['brands', 'documents', 'upload', 'acme', ''],
    ]) {
      expect((await complete(words, offline)).stdout, words.join(' ')).toBe(':files\n');
    }
    expect((await complete(['assets', 'sync', ''], offline)).stdout).toBe(':dirs\n');
  });

  it('a dead or hanging service: nothing printed, exit 0, within about a second; never a prompt', async () => {
    const hanging = await stubService([], true);
    try {
      for (const base of ['http://127.0.0.1:9', hanging.url]) {
        const r = await runAdops(['__complete', 'brands', 'get', ''], {
          env: { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: base, ADOPS_API_KEY: DEMO.full },
        });
        expect(r.code).toBe(0);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe('');
        expect(r.ms).toBeLessThan(2000);
      }
      // No key at all: nothing, no prompt, no error.
      const none = await runAdops(['__complete', 'brands', 'get', ''], { env: { ADOPS_CONFIG_DIR: tempConfigDir() } });
      expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
    } finally {
      await hanging.close();
    }
  });

  it('caches ~60 s per profile and organization; two completions at once leave a valid cache; the key is never printed', async () => {
    const key = 'acr_cache_test_key_0001';
    const svc = await stubService([{ slug: 'cached-brand' }, { slug: key }, { slug: `x${key}` }, { slug: 'two words' }, { slug: 'ctl\u001b[31m' }]);
    const dir = tempConfigDir();
    try {
      // Two profiles on the same service with different keys: different organizations, different caches.
      for (const [profile, k] of [
        ['one', key],
        ['two', 'acr_cache_test_key_0002'],
      ] as const) {
        const r = await runAdops(['auth', 'login', '--profile', profile, '--with-key', '--url', svc.url, '--no-verify'], {
          env: { ADOPS_CONFIG_DIR: dir },
          stdin: k,
        });
        expect(r.code, r.stderr).toBe(0);
      }
      const at = (profile: string) => runAdops(['__complete', '--profile', profile, 'brands', 'get', ''], { env: { ADOPS_CONFIG_DIR: dir, ...SLOW } });
      // At once (on a loaded machine some may give up at the deadline: then they print nothing, never garbage).
      const all = await Promise.all(Array.from({ length: 6 }, () => at('one')));
      for (const r of all) expect(['', 'cached-brand\n']).toContain(r.stdout);
      if (all.every((r) => r.stdout === '')) expect((await at('one')).stdout).toBe('cached-brand\n');
      const hitsAfterRace = svc.hits();
      expect(hitsAfterRace).toBeGreaterThanOrEqual(1);
      expect((await at('one')).stdout).toBe('cached-brand\n');
      expect(svc.hits()).toBe(hitsAfterRace); // served from the cache
      await at('two');
      expect(svc.hits()).toBe(hitsAfterRace + 1); // another profile and key: its own cache
      const cacheRoot = join(dir, 'completion-cache');
      const scopes = readdirSync(cacheRoot);
      expect(scopes.length).toBe(2);
      for (const s of scopes) {
        expect(s).toMatch(/^(one|two)-[0-9a-f]{16}$/);
        const files = readdirSync(join(cacheRoot, s));
        expect(files).toEqual(['brand.json']); // no lock or temp file left behind
        const data = JSON.parse(readFileSync(join(cacheRoot, s, 'brand.json'), 'utf8'));
        expect(data.values).toEqual(['cached-brand']);
        expect(JSON.stringify(data)).not.toContain(key);
      }
    } finally {
      await svc.close();
    }
  });
});

// ---- the scripts in real shells ------------------------------------------

const script = (shell: string) => join(ROOT, 'completions', `adops.${shell}`);
const shellEnv = () => ({ ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env(), HOME: work });
const have = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

/** bash: the function `complete -p adops` registered, run as readline runs it (COMP_WORDS split at "=" as bash splits them). */
function bashComplete(line: string): string[] {
  const words = line.replace(/=/g, ' = ').split(/ +/);
  if (line.endsWith(' ')) words[words.length - 1] = '';
  const program = `source ${JSON.stringify(script('bash'))}
spec=$(complete -p adops); fn=\${spec#*-F }; fn=\${fn%% *}
COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}
COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
"$fn" adops "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { cwd: work, env: shellEnv(), encoding: 'utf8', timeout: 20_000 });
  expect(r.status, r.stderr).toBe(0);
  return lines(r.stdout).sort();
}

/** zsh: compinit loaded (once: it is slow), the script registered by compdef; compadd and _files record what they are given. */
function zshCompleteAll(all: readonly string[]): string[][] {
  const calls = all.map((line) => {
    const words = line.split(/ +/);
    return `words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _adops; print -- '@@'`;
  });
  const program = `autoload -Uz compinit && compinit -u -D
source ${JSON.stringify(script('zsh'))}
[[ $_comps[adops] == _adops ]] || { print -u2 "not registered"; exit 3 }
compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; print -l -- "$@" }
_files() { local -a f; if [[ $1 == -/ ]]; then f=( \${words[CURRENT]}*(N/) ); else f=( \${words[CURRENT]}*(N) ); fi; print -l -- $f }
${calls.join('\n')}`;
  const r = spawnSync('zsh', ['-f', '-c', program], { cwd: work, env: shellEnv(), encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout
    .split('@@\n')
    .slice(0, all.length)
    .map((block) => lines(block).sort());
}

/** fish: its own completion engine (`complete -C`), file names and all. */
function fishComplete(line: string): string[] {
  const r = spawnSync('fish', ['--no-config', '-c', `source ${JSON.stringify(script('fish'))}; complete -C ${JSON.stringify(line)}`], {
    cwd: work,
    env: shellEnv(),
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return lines(r.stdout)
    .map((l) => l.split('\t')[0]!)
    .sort();
}

const SHELL_RUNNERS: Record<string, (lines: readonly string[]) => string[][]> = {
  bash: (all) => all.map(bashComplete),
  zsh: zshCompleteAll,
  fish: (all) => all.map(fishComplete),
};

describe.each(Object.keys(SHELL_RUNNERS))('completion in %s', (shell) => {
  const present = have(shell);
  if (!present) {
    // Loud: the CI image must have every shell (.ci/run installs them).
    console.error(`\n!!! ${shell} is not installed here: its completion test is SKIPPED (apt-get install ${shell}) !!!\n`);
  }
  const runAll = SHELL_RUNNERS[shell]!;
  it.skipIf(!present)('subcommands, -o formats, file names for file arguments, and advertiser ids from the service', () => {
    const cases: Array<[string, (got: string[]) => void]> = [
      ['adops obs', (got) => expect(got).toEqual(['observe'])],
      ['adops -o ', (got) => expect(got).toEqual(['csv', 'json', 'markdown', 'ndjson', 'table'])],
      ['adops observe campaigns -o nd', (got) => expect(got).toEqual(['ndjson'])],
      ['adops assets upload cre', (got) => expect(got.filter((c) => !c.startsWith('creatives'))).toEqual(['creative-1.png', 'creative-2.jpg'])],
      ['adops assets sync cre', (got) => expect(got).toEqual([expect.stringMatching(/^creatives\/?$/)])],
      ['adops mutations apply --journal not', (got) => expect(got).toEqual(['notes.txt'])],
      ['adops observe campaigns --live acc_acme_a', (got) => expect(got).toEqual(['acc_acme_a_001', 'acc_acme_a_nocur'])],
      ['adops brands get tab', (got) => expect(got).toEqual(['tab-brand'])],
    ];
    const results = runAll(cases.map(([line]) => line));
    cases.forEach(([line, check], i) => {
      try {
        check(results[i]!);
      } catch (err) {
        throw new Error(`${shell}: ${line} → ${JSON.stringify(results[i])}: ${(err as Error).message}`, { cause: err });
      }
    });
  });
  if (shell === 'bash')
    it.skipIf(!present)('--flag=value in bash (which splits the word at "=")', () => {
      expect(runAll(['adops observe campaigns --output=nd', 'adops observe campaigns --status=PA'])).toEqual([['ndjson'], ['PAUSED']]);
    });
});
