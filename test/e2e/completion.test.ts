// Shell completion: `adops __complete` (ids from a cache per profile and
// organization that a detached background refresh fills: a TAB never waits
// for the service; fixed choices offline) and the generated scripts used in
// real bash, zsh and fish, names beside ids in zsh and fish.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeEntry } from '../../src/cli/complete.js';
import { getRegistry } from '../../src/commands/index.js';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, runAdops, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';
import { endRefreshes, refreshNotes, refreshPids, settleRefreshes } from '../helpers/completion-refresh.js';
import { serviceCall } from '../helpers/service-call.js';
import { tempDir } from '../helpers/temp.js';
import { zshCompinit } from '../helpers/zsh-compinit.js';

let sandbox: SandboxChild;
const cfg = tempConfigDir();
const bin = tempDir('adops-bin-');
const work = tempDir('adops-complete-');
// Default settings everywhere: no bound is moved for this (loaded) machine.
const env = (over: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ...over });
const complete = (words: string[], over: Record<string, string> = {}) => runAdops(['__complete', ...words], { env: env(over) });
/**
 * What a TAB prints, computed in this process by the function main.js gives `__complete` and `__complete-describe`
 * (src/cli/complete.ts completeEntry), with the argv and environment a spawned TAB gets; a refresh it starts is the
 * binary, as from a TAB. For the tests of what is listed; what only the TAB's own process shows (its time, its
 * stderr, a refresh started from the binary) is spawned (`complete`). Each spawn was ~0.4 s of CPU in the suite.
 */
async function completeHere(argv: string[], over: Record<string, string> = {}): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stdout += chunk.toString('utf8');
      done();
    },
  });
  const code = await completeEntry(argv, baseEnv(env(over)), out, async () => getRegistry());
  return { code, stdout };
}
const tab = (words: string[], over: Record<string, string> = {}) => completeHere(['__complete', ...words], over);
/**
 * A TAB's answer from a warm cache: the TAB, and if it started a background refresh (the cache was cold or stale),
 * that refresh awaited and the TAB again. A TAB that started none read a fresh cache: its answer is what the second
 * would print (the second TAB each time was ~11 spawns of the binary per run of this file).
 */
async function completeWarm(words: string[], over: Record<string, string> = {}) {
  const dir = over.ADOPS_CONFIG_DIR ?? cfg;
  const notes = refreshNotes(dir);
  const first = await tab(words, over);
  if (first.stdout !== '' && refreshNotes(dir) === notes) return first;
  await settleRefreshes(dir);
  return tab(words, over);
}
const lines = (s: string) => s.split('\n').filter(Boolean);
const ids: Record<string, string> = {};

/** What `node -e 0` takes here now (the median of three): Node's own start, which every TAB pays too. */
function nodeStartMs(): number {
  const times = [0, 1, 2].map(() => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    return performance.now() - t;
  });
  return times.sort((a, b) => a - b)[1]!;
}
/** Over Node's start a TAB may take ~300 ms; the slack is for this shared, loaded machine. */
const TAB_OVER_NODE_MS = 300;
const SLACK_MS = 700;

/** A loopback service that answers every list with `rows` (after `delayMs`), counting requests; or never answers (`hang`). */
async function stubService(
  rows: Array<Record<string, unknown>>,
  hang = false,
  delayMs = 0,
): Promise<{ url: string; hits: () => number; urls: string[]; close: () => Promise<void> }> {
  let hits = 0;
  const urls: string[] = [];
  const server: Server = createServer((req, res) => {
    hits++;
    urls.push(req.url ?? '');
    if (hang) return;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: rows }));
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    urls,
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
  // What the TABs below list, made through the service's own API (the set-up, not the claim: six spawns of the
  // binary each run of this file, ~0.4 s of CPU apiece, did the same requests).
  const api = (method: string, path: string, body?: object) => serviceCall(sandbox.url, DEMO.full, method, path, body);
  await api('POST', '/context/brands', { slug: 'tab-brand', name: 'Tab Brand' });
  await api('POST', '/context/campaign-plans', { slug: 'tab-plan', name: 'Tab Plan', currency: 'USD' });
  await api('POST', '/context/skills', { slug: 'tab-skill', name: 'Tab Skill', body: '# x' });
  ids.asset = String((await api('POST', '/assets/uploads', { filename: 'tab.png' })).id);
  const campaigns = (await api('GET', '/observe/campaigns?advertiserId=acc_acme_c_001&limit=1')).data as Array<{ id: string }>;
  const target = { type: 'campaign', id: campaigns[0]!.id };
  ids.mutation = String((await api('POST', '/mutations', { advertiserId: 'acc_acme_c_001', action: 'pause', target })).id);
}, 90_000);
afterAll(async () => {
  await endRefreshes(cfg);
  await sandbox?.stop();
});

describe('adops __complete', () => {
  it('a fresh config dir: the first TAB answers at once and starts the refresh; the second, within 5 s, lists the advertisers', async () => {
    const dir = tempConfigDir();
    const node = nodeStartMs();
    const words = ['observe', 'campaigns', '--live', ''];
    const t0 = Date.now();
    const first = await complete(words, { ADOPS_CONFIG_DIR: dir });
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.ms, `first TAB ${first.ms} ms, node -e 0 ${Math.round(node)} ms`).toBeLessThan(node + TAB_OVER_NODE_MS + SLACK_MS);
    expect(refreshPids(dir).length).toBe(1); // it started one refresh
    // A person presses TAB again a moment later: by 5 s the ids are there.
    let second = await complete(words, { ADOPS_CONFIG_DIR: dir });
    while (lines(second.stdout).length === 0 && Date.now() - t0 < 5000) {
      await new Promise((r) => setTimeout(r, 250));
      second = await complete(words, { ADOPS_CONFIG_DIR: dir });
    }
    expect(Date.now() - t0, 'the ids arrived after 5 s').toBeLessThan(5000);
    const got = lines(second.stdout);
    expect(got).toEqual(expect.arrayContaining(['acc_acme_a_001', 'acc_acme_b_001', 'acc_acme_c_001']));
    for (const id of got) expect(id).toMatch(/^acc_acme_/);
    expect(second.ms, `TAB ${second.ms} ms, node -e 0 ${Math.round(node)} ms`).toBeLessThan(node + TAB_OVER_NODE_MS + SLACK_MS);
    await settleRefreshes(dir);
  });

  it('through a stored profile as through ADOPS_BASE_URL and ADOPS_API_KEY: the current one, or --profile on the line', async () => {
    const dir = tempConfigDir();
    const login = await runAdops(['auth', 'login', '--profile', 'work', '--with-key', '--url', sandbox.url, '--no-verify'], {
      env: { ADOPS_CONFIG_DIR: dir },
      stdin: DEMO.globex,
    });
    expect(login.code, login.stderr).toBe(0);
    const only = { ADOPS_CONFIG_DIR: dir };
    const run = (words: string[]) => runAdops(['__complete', ...words], { env: only });
    await run(['observe', 'drift', '']);
    await settleRefreshes(dir);
    const current = lines((await run(['observe', 'drift', ''])).stdout);
    expect(current.length).toBeGreaterThan(0);
    for (const a of current) expect(a).toMatch(/^acc_globex_/);
    expect(lines((await run(['--profile', 'work', 'observe', 'drift', ''])).stdout)).toEqual(current);
    await settleRefreshes(dir);
  });

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
      const r = await completeWarm(words);
      expect(r.code).toBe(0);
      expect(lines(r.stdout), words.join(' ')).toContain(want);
      for (const l of lines(r.stdout)) expect(l.startsWith(words.at(-1)!), words.join(' ')).toBe(true);
      expect(r.stdout).not.toContain(DEMO.full);
    }
    // The same TAB as a process (the cache warm now): exit 0, nothing on stderr, the same answer.
    const spawned = await complete(['plans', 'get', '']);
    expect([spawned.code, spawned.stderr]).toEqual([0, '']);
    expect(lines(spawned.stdout)).toContain('tab-plan');
    // Advertisers are distinct: one line each; the advertiser without a currency is there too.
    const adv = lines((await completeWarm(['observe', 'drift', ''])).stdout);
    expect(adv.length).toBe(new Set(adv).size);
    expect(adv).toContain('acc_acme_a_nocur');
    // Another organization's key sees its own ids only.
    const globex = lines((await completeWarm(['observe', 'drift', ''], { ADOPS_API_KEY: DEMO.globex })).stdout);
    expect(globex.length).toBeGreaterThan(0);
    for (const a of globex) expect(a).toMatch(/^acc_globex_/);
  });

  it("__complete-describe: a tab and the name after each id, a summary after each subcommand and flag; bash's __complete has ids only", async () => {
    const brands = lines((await completeWarm(['brands', 'get', 'tab'])).stdout);
    expect(brands).toEqual(['tab-brand']);
    const described = await completeHere(['__complete-describe', 'brands', 'get', 'tab']);
    expect(lines(described.stdout)).toEqual(['tab-brand\tTab Brand']);
    // The advertisers' cache warmed here too: alone (-t), this test found it empty (an earlier test had filled it).
    await completeWarm(['observe', 'campaigns', '--live', 'acc_acme_a']);
    const adv = lines((await completeHere(['__complete-describe', 'observe', 'campaigns', '--live', 'acc_acme_a'])).stdout);
    expect(adv).toEqual(['acc_acme_a_001\tprovider_a · USD', 'acc_acme_a_nocur\tprovider_a']);
    const sub = lines((await completeHere(['__complete-describe', 'obs'])).stdout);
    expect(sub).toEqual([expect.stringMatching(/^observe\t\S.*/)]);
    const flags = lines((await completeHere(['__complete-describe', 'observe', 'drift', 'acc_1', '--exit'])).stdout);
    expect(flags).toEqual([expect.stringMatching(/^--exit-code\t\S.*/)]);
  });

  it('fixed choices, subcommands and flags need no service; -o offers output formats', async () => {
    const offline = { ADOPS_BASE_URL: 'http://127.0.0.1:9', ADOPS_API_KEY: 'acr_unused_0000' };
    expect(lines((await tab(['-o', ''], offline)).stdout)).toEqual(['table', 'json', 'ndjson', 'csv', 'markdown']);
    expect(lines((await tab(['observe', 'campaigns', '-o', 'nd'], offline)).stdout)).toEqual(['ndjson']);
    expect(lines((await tab(['observe', 'campaigns', '--output=c'], offline)).stdout)).toEqual(['--output=csv']);
    expect(lines((await tab(['observe', 'campaigns', '--status', ''], offline)).stdout)).toEqual(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED']);
    expect(lines((await tab(['obs'], offline)).stdout)).toEqual(['observe']);
    expect(lines((await tab(['observe', ''], offline)).stdout)).toContain('drift');
    expect(lines((await tab(['observe', 'drift', 'acc_1', '--'], offline)).stdout)).toEqual(
      expect.arrayContaining(['--level', '--compare', '--exit-code', '--output']),
    );
    expect(lines((await tab(['completion', ''], offline)).stdout)).toEqual(['bash', 'zsh', 'fish']);
    // File arguments hand over to the shell's file names.
    for (const words of [
      ['assets', 'upload', 'cre'],
      ['mutations', 'apply', ''],
      ['plans', 'apply', ''],
      ['api', 'POST', '/x', '--input', ''],
      ['sandbox', 'serve', '--fixtures', ''],
      ['brands', 'documents', 'upload', 'acme', ''],
    ]) {
      expect((await tab(words, offline)).stdout, words.join(' ')).toBe(':files\n');
    }
    expect((await tab(['assets', 'sync', ''], offline)).stdout).toBe(':dirs\n');
  });

  it('a dead, hanging or slow (3 s) service never slows a TAB: nothing printed, exit 0, at once; never a prompt', async () => {
    const hanging = await stubService([], true);
    const node = nodeStartMs();
    const dirs: string[] = [];
    try {
      for (const base of ['http://127.0.0.1:9', hanging.url]) {
        const dir = tempConfigDir();
        dirs.push(dir);
        for (let i = 0; i < 2; i++) {
          const r = await runAdops(['__complete', 'brands', 'get', ''], { env: { ADOPS_CONFIG_DIR: dir, ADOPS_BASE_URL: base, ADOPS_API_KEY: DEMO.full } });
          expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
          expect(r.ms, `${base}: ${r.ms} ms, node -e 0 ${Math.round(node)} ms`).toBeLessThan(node + TAB_OVER_NODE_MS + SLACK_MS);
        }
        // TABs in a row start one refresh, not one each.
        expect(refreshPids(dir).length).toBe(1);
      }
      // No key at all: nothing, no prompt, no error, no refresh.
      const none = await runAdops(['__complete', 'brands', 'get', ''], { env: { ADOPS_CONFIG_DIR: tempConfigDir() } });
      expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
    } finally {
      for (const dir of dirs) await endRefreshes(dir);
      await hanging.close();
    }
  });

  it('a slow service (2 s an answer, past the bound on a TAB): every TAB returns at once; the refresh fills the cache and the next TAB lists its ids', async () => {
    const slow = await stubService([{ slug: 'slow-brand', name: 'Slow Brand' }], false, 2000);
    const dir = tempConfigDir();
    const node = nodeStartMs();
    const over = { ADOPS_CONFIG_DIR: dir, ADOPS_BASE_URL: slow.url, ADOPS_API_KEY: DEMO.full };
    try {
      const t0 = Date.now();
      let r = await complete(['brands', 'get', ''], over);
      const times = [r.ms];
      while (r.stdout === '' && Date.now() - t0 < 15_000) {
        await new Promise((res) => setTimeout(res, 300));
        r = await complete(['brands', 'get', ''], over);
        times.push(r.ms);
      }
      expect(r.stdout).toBe('slow-brand\n');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(2000); // it did come from the slow service
      for (const ms of times) expect(ms, `TABs took ${times.join(', ')} ms; node -e 0 ${Math.round(node)} ms`).toBeLessThan(node + TAB_OVER_NODE_MS + SLACK_MS);
      expect(slow.hits()).toBe(1);
    } finally {
      await endRefreshes(dir);
      await slow.close();
    }
  });

  it('advertisers from the cheapest source: one page of Insights at advertiser level, and the newest page of campaigns', async () => {
    const svc = await stubService([
      { advertiserId: 'acc_spent_1', provider: 'provider_a', currency: 'EUR' },
      { advertiserId: 'acc_spent_1', provider: 'provider_a', currency: 'EUR' },
      { advertiserId: 'acc_new_1', provider: 'provider_c', currency: null },
    ]);
    const dir = tempConfigDir();
    try {
      const r = await completeWarm(['observe', 'drift', ''], { ADOPS_CONFIG_DIR: dir, ADOPS_BASE_URL: svc.url });
      expect(lines(r.stdout)).toEqual(['acc_new_1', 'acc_spent_1']);
      expect(svc.urls.length).toBe(2);
      const [insights, campaigns] = svc.urls.map((u) => new URL(u, 'http://x'));
      expect(insights!.pathname).toBe('/observe/insights');
      expect(Object.fromEntries(insights!.searchParams)).toMatchObject({ level: 'advertiser', timeGrain: 'all', limit: '500' });
      const days = (Date.parse(insights!.searchParams.get('until')!) - Date.parse(insights!.searchParams.get('since')!)) / 86_400_000;
      expect(days).toBe(3649); // the longest range the service takes (under ten years)
      expect(campaigns!.pathname).toBe('/observe/campaigns');
      expect(campaigns!.searchParams.get('limit')).toBe('100');
    } finally {
      await endRefreshes(dir);
      await svc.close();
    }
  });

  it('a stale cache is printed at once and renewed in the background for the next TAB', async () => {
    const svc = await stubService([{ slug: 'new-brand', name: 'New' }]);
    const dir = tempConfigDir();
    const over = { ADOPS_CONFIG_DIR: dir, ADOPS_BASE_URL: svc.url, ADOPS_API_KEY: DEMO.full };
    try {
      await completeWarm(['brands', 'get', ''], over);
      const [scope] = readdirSync(join(dir, 'completion-cache'));
      const file = join(dir, 'completion-cache', scope!, 'brand.json');
      // Two minutes old, and another answer: what the service said last time.
      writeFileSync(file, JSON.stringify({ at: Date.now() - 120_000, entries: [['old-brand', 'Old']] }));
      // Noted two minutes ago by a refresh long over (a pid that has ended).
      const ended = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(join(dir, 'completion-cache', scope!, 'brand.refresh'), JSON.stringify({ pid: ended, at: Date.now() - 120_000 }));
      const hits = svc.hits();
      expect((await complete(['brands', 'get', ''], over)).stdout).toBe('old-brand\n');
      await settleRefreshes(dir);
      expect(svc.hits()).toBe(hits + 1);
      expect((await complete(['brands', 'get', ''], over)).stdout).toBe('new-brand\n');
    } finally {
      await endRefreshes(dir);
      await svc.close();
    }
  });

  it('caches per profile and organization; TABs at once leave a valid cache; the key is never printed', async () => {
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
      const at = (profile: string) => runAdops(['__complete', '--profile', profile, 'brands', 'get', ''], { env: { ADOPS_CONFIG_DIR: dir } });
      // At once: each prints nothing (cold) or the whole answer, never garbage.
      const all = await Promise.all(Array.from({ length: 6 }, () => at('one')));
      for (const r of all) expect(['', 'cached-brand\n']).toContain(r.stdout);
      await settleRefreshes(dir);
      const hitsAfterRace = svc.hits();
      expect(hitsAfterRace).toBeGreaterThanOrEqual(1);
      expect((await at('one')).stdout).toBe('cached-brand\n');
      expect(svc.hits()).toBe(hitsAfterRace); // served from the cache
      await at('two');
      await settleRefreshes(dir);
      expect(svc.hits()).toBe(hitsAfterRace + 1); // another profile and key: its own cache
      expect((await at('two')).stdout).toBe('cached-brand\n');
      const cacheRoot = join(dir, 'completion-cache');
      const scopes = readdirSync(cacheRoot);
      expect(scopes.length).toBe(2);
      for (const s of scopes) {
        expect(s).toMatch(/^(one|two)-[0-9a-f]{16}$/);
        const files = readdirSync(join(cacheRoot, s)).sort();
        expect(files).toEqual(['brand.json', 'brand.refresh']); // no lock or temp file left behind
        const data = JSON.parse(readFileSync(join(cacheRoot, s, 'brand.json'), 'utf8'));
        expect(data.entries).toEqual([['cached-brand']]);
        expect(JSON.stringify(data)).not.toContain(key);
      }
    } finally {
      await endRefreshes(dir);
      await svc.close();
    }
  });
});

// ---- the scripts in real shells ------------------------------------------

const script = (shell: string) => join(ROOT, 'completions', `adops.${shell}`);
const shellEnv = () => ({ ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env(), HOME: work });
const have = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

/**
 * bash: the function `complete -p adops` registered, run as readline runs it (COMP_WORDS split at "=" as bash splits
 * them), for each line in one bash session (the script sourced once, as a shell does; COMPREPLY emptied before each
 * TAB, as readline starts each completion with none).
 */
function bashCompleteAll(all: readonly string[]): string[][] {
  const calls = all.map((line) => {
    const words = line.replace(/=/g, ' = ').split(/ +/);
    if (line.endsWith(' ')) words[words.length - 1] = '';
    return `COMPREPLY=(); COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}
COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
"$fn" adops "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}" '@@'`;
  });
  const program = `source ${JSON.stringify(script('bash'))}
spec=$(complete -p adops); fn=\${spec#*-F }; fn=\${fn%% *}
${calls.join('\n')}`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { cwd: work, env: shellEnv(), encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return splitAnswers(r.stdout, all.length).map((block) => lines(block).sort());
}

/** One shell session's output for `count` lines, each line's answer ended by a line "@@". */
function splitAnswers(stdout: string, count: number): string[] {
  const blocks: string[][] = [[]];
  for (const l of stdout.split('\n')) {
    if (l === '@@') blocks.push([]);
    else blocks.at(-1)!.push(l);
  }
  expect(blocks.length, `expected ${count} answers: ${JSON.stringify(stdout)}`).toBe(count + 1);
  return blocks.slice(0, count).map((b) => b.join('\n'));
}

const ZSH_COMPINIT = zshCompinit({ base: false });

/**
 * zsh: compinit loaded (ZSH_COMPINIT), the script registered by compdef; _describe, compadd and _files record
 * what they are given (_describe its "id:name" array). `raw` keeps the names; otherwise ids only.
 */
function zshCompleteAll(all: readonly string[], raw = false): string[][] {
  const calls = all.map((line) => {
    const words = line.split(/ +/);
    return `words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _adops; print -- '@@'`;
  });
  const program = `${ZSH_COMPINIT}
source ${JSON.stringify(script('zsh'))}
[[ $_comps[adops] == _adops ]] || { print -u2 "not registered"; exit 3 }
compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; print -l -- "$@" }
_describe() { print -l -- "\${(@P)\${@[-1]}}" }
_files() { local -a f; if [[ $1 == -/ ]]; then f=( \${words[CURRENT]}*(N/) ); else f=( \${words[CURRENT]}*(N) ); fi; print -l -- $f }
${calls.join('\n')}`;
  const r = spawnSync('zsh', ['-f', '-c', program], { cwd: work, env: shellEnv(), encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return splitAnswers(r.stdout, all.length).map((block) => (raw ? lines(block) : lines(block).map((l) => l.split(':')[0]!)).sort());
}

/**
 * fish: its own completion engine (`complete -C`), file names and all, for each line in one fish session (the
 * script sourced once); `raw` keeps the tab and the name.
 */
function fishCompleteAll(all: readonly string[], raw = false): string[][] {
  const calls = all.map((line) => `complete -C ${JSON.stringify(line)}; echo @@`);
  const r = spawnSync('fish', ['--no-config', '-c', `source ${JSON.stringify(script('fish'))}\n${calls.join('\n')}`], {
    cwd: work,
    env: shellEnv(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return splitAnswers(r.stdout, all.length).map((block) =>
    lines(block)
      .map((l) => (raw ? l : l.split('\t')[0]!))
      .sort(),
  );
}

const SHELL_RUNNERS: Record<string, (lines: readonly string[]) => string[][]> = {
  bash: bashCompleteAll,
  zsh: zshCompleteAll,
  fish: (all) => fishCompleteAll(all),
};

describe.each(Object.keys(SHELL_RUNNERS))('completion in %s', (shell) => {
  const present = have(shell);
  if (!present) {
    // Loud: the CI image must have every shell (.ci/run installs them).
    console.error(`\n!!! ${shell} is not installed here: its completion test is SKIPPED (apt-get install ${shell}) !!!\n`);
  }
  const runAll = SHELL_RUNNERS[shell]!;
  // The ids come from the cache: warm it (the first TAB of a fresh config dir has nothing yet).
  beforeAll(async () => {
    await completeWarm(['observe', 'campaigns', '--live', '']);
    await completeWarm(['brands', 'get', '']);
  }, 60_000);
  afterAll(() => endRefreshes(cfg));
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
  if (shell !== 'bash')
    it.skipIf(!present)('the name beside each id, the summary beside each subcommand', () => {
      const typed = ['adops brands get tab', 'adops observe campaigns --live acc_acme_a', 'adops obs'];
      const got = shell === 'zsh' ? zshCompleteAll(typed, true) : fishCompleteAll(typed, true);
      const sep = shell === 'zsh' ? ':' : '\t';
      expect(got[0]).toEqual([`tab-brand${sep}Tab Brand`]);
      expect(got[1]).toEqual([`acc_acme_a_001${sep}provider_a · USD`, `acc_acme_a_nocur${sep}provider_a`]);
      expect(got[2]).toEqual([expect.stringMatching(new RegExp(`^observe${sep}\\S`))]);
    });
  if (shell === 'bash')
    it.skipIf(!present)('--flag=value in bash (which splits the word at "=")', () => {
      expect(runAll(['adops observe campaigns --output=nd', 'adops observe campaigns --status=PA'])).toEqual([['ndjson'], ['PAUSED']]);
    });
});
