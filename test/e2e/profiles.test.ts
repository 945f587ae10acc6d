// Every profile at a glance: auth list, auth switch, auth status --all, with
// the built binary against the demo sandbox (in this process). The key is never printed in full.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

let sandbox: DemoSandbox;
const cfg = tempConfigDir();
const BAD = 'acr_not_a_real_key_9999';
const cli = (args: readonly string[], stdin?: string) => runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg }, ...(stdin !== undefined ? { stdin } : {}) });
const noKeyShown = (r: RunResult) => {
  for (const key of [DEMO.full, DEMO.globex, BAD]) expect(r.stdout + r.stderr).not.toContain(key);
};

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startDemoSandbox();
  for (const [profile, key, verify] of [
    ['acme', DEMO.full, true],
    ['globex', DEMO.globex, true],
    ['broken', BAD, false],
  ] as const) {
    const r = await cli(['auth', 'login', '--profile', profile, '--with-key', '--url', sandbox.url, ...(verify ? [] : ['--no-verify'])], key);
    expect(r.code, r.stderr).toBe(0);
  }
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
});

describe('profiles', () => {
  it('auth list: each profile, its base URL, masked key and which is the default', async () => {
    const r = await cli(['auth', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    noKeyShown(r);
    expect(JSON.parse(r.stdout)).toEqual([
      // The first profile logged in to became the default; later named logins leave it alone (#13 item 23).
      { name: 'acme', default: true, baseUrl: sandbox.url, key: 'acr_…0001', organization: null },
      { name: 'broken', default: false, baseUrl: sandbox.url, key: 'acr_…9999', organization: null },
      { name: 'globex', default: false, baseUrl: sandbox.url, key: 'acr_…0001', organization: null },
    ]);
    const csv = await cli(['auth', 'list', '-o', 'csv', '--fields', 'name,default']);
    expect(csv.stdout).toBe('name,default\nacme,true\nbroken,false\nglobex,false\n');
  });

  it('auth switch: makes a profile the default; unknown and malformed names are usage errors', async () => {
    const r = await cli(['auth', 'switch', 'globex']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Default profile is now "globex"');
    expect(JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8')).currentProfile).toBe('globex');
    // The default is what a plain command now uses: globex sees only its own advertisers.
    const seen = await cli(['observe', 'campaigns', '--limit', '5', '-o', 'json', '--query', '[].advertiserId']);
    expect(seen.code, seen.stderr).toBe(0);
    for (const a of JSON.parse(seen.stdout) as string[]) expect(a).toMatch(/^acc_globex_/);
    const list = JSON.parse((await cli(['auth', 'list', '-o', 'json'])).stdout) as Array<{ name: string; default: boolean }>;
    expect(list.filter((p) => p.default).map((p) => p.name)).toEqual(['globex']);

    const unknown = await cli(['auth', 'switch', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no profile named "nope"[\s\S]*known profiles: acme, globex, broken/);
    for (const bad of ['bad name', '../etc', '-x', 'a'.repeat(65)]) {
      const r2 = await cli(['auth', 'switch', '--', bad]);
      expect(r2.code, bad).toBe(2);
      expect(r2.stderr, bad).toMatch(/is not a profile name|unknown option/);
    }
    const login = await cli(['auth', 'login', '--profile', 'with space', '--with-key', '--url', sandbox.url], DEMO.full);
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('is not a profile name');
    expect(JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8')).currentProfile).toBe('globex');
  });

  it('auth status --all: checks every key against its own service; one bad key makes the exit non-zero', async () => {
    const r = await cli(['auth', 'status', '--all', '-o', 'json']);
    expect(r.code).toBe(3);
    noKeyShown(r);
    const rows = JSON.parse(r.stdout) as Array<{ name: string; ok: boolean; detail: string }>;
    expect(rows.map((x) => [x.name, x.ok])).toEqual([
      ['acme', true],
      ['broken', false],
      ['globex', true],
    ]);
    expect(rows.find((x) => x.name === 'broken')!.detail).toContain('401 unauthorized');
    expect(r.stderr).toContain('1 of 3 profiles failed: broken');

    await cli(['auth', 'logout', '--profile', 'broken']);
    const fixed = await runAdopsInProcess(['auth', 'status', '--all', '-o', 'json'], { env: { ADOPS_CONFIG_DIR: cfg } });
    // A profile with no key fails too.
    expect(fixed.code).toBe(3);
    expect((JSON.parse(fixed.stdout) as Array<{ name: string; detail: string }>).find((x) => x.name === 'broken')!.detail).toBe('no key stored');
  });
});
