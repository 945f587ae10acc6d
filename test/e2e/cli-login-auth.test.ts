// `sandbox serve --login` and `auth`: a newcomer needs no key copied; login stores
// 0600, never echoes the key, never blocks on a prompt off a terminal. The sandbox
// child stops cleanly on SIGTERM and (last) SIGINT.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, runAdopsTty, startSandboxChild, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { cfg, child, envFor, run, sandbox, useLoggedInSandbox } from './cli-fixture.js';

// The serve command itself is tested here (its stderr, its exit on SIGTERM and SIGINT): a child process.
useLoggedInSandbox({ child: true });

describe('sandbox serve --login', () => {
  it('points the "sandbox" profile at itself with a demo key, 0600 in 0700', () => {
    const file = join(cfg, 'config.json');
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(data.currentProfile).toBe('sandbox');
    expect(data.profiles.sandbox).toMatchObject({ baseUrl: sandbox.url, apiKey: DEMO.full });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(cfg).mode & 0o777).toBe(0o700);
    expect(child.stderr()).toMatch(/Demo API keys/);
    // It wrote a key, yet its running process's argv holds none.
    expect(readFileSync(`/proc/${child.process.pid}/cmdline`, 'utf8')).not.toContain('acr_');
  });

  it('a newcomer runs a command with no key copied', async () => {
    const r = await run(['assets', 'list', '--limit', '5']);
    expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });

  it('stops cleanly on SIGTERM with exit 0 (SIGINT: the last test of this file)', async () => {
    const other = await startSandboxChild([], { ADOPS_CONFIG_DIR: tempConfigDir() });
    expect(await other.stop('SIGTERM')).toBe(0);
  });
});

describe('auth', () => {
  it('login --with-key reads stdin, verifies, stores 0600, never echoes the key', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsInProcess(['auth', 'login', '--with-key', '--url', sandbox.url], { env: { ADOPS_CONFIG_DIR: dir }, stdin: `${DEMO.globex}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(DEMO.globex);
    expect(r.stderr).toContain('acr_…0001');
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    const status = await runAdopsInProcess(['auth', 'status', '--json'], { env: { ADOPS_CONFIG_DIR: dir } });
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'default', baseUrl: sandbox.url, key: 'acr_…0001', keySource: 'file', envOverrides: [] });
    expect(status.stdout).not.toContain(DEMO.globex);
    const out = await runAdopsInProcess(['auth', 'logout'], { env: { ADOPS_CONFIG_DIR: dir } });
    expect(out.code).toBe(0);
    expect((await runAdopsInProcess(['auth', 'status'], { env: { ADOPS_CONFIG_DIR: dir } })).code).toBe(3);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default).toEqual({ baseUrl: sandbox.url });
  });

  it('login refuses a key the service rejects (exit 3) and stores nothing', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsInProcess(['auth', 'login', '--with-key', '--url', sandbox.url], { env: { ADOPS_CONFIG_DIR: dir }, stdin: DEMO.revoked });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).not.toContain(DEMO.revoked);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });

  it('never blocks on a prompt without a terminal: login with stdin closed is a usage error', async () => {
    const r = await runAdopsInProcess(['auth', 'login'], { env: { ADOPS_CONFIG_DIR: tempConfigDir() }, timeoutMs: 8_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-key/);
  });

  it('asks for the key with a hidden prompt on a terminal', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsTty(['auth', 'login', '--url', sandbox.url], {
      env: { ADOPS_CONFIG_DIR: dir },
      input: `${DEMO.observeOnly}\r`,
      waitFor: 'API key',
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('API key');
    expect(r.stdout).not.toContain(DEMO.observeOnly);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.apiKey).toBe(DEMO.observeOnly);
  });

  it('Ctrl-C at the prompt exits 130 and stores nothing', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsTty(['auth', 'login', '--url', sandbox.url], { env: { ADOPS_CONFIG_DIR: dir }, input: '\u0003', waitFor: 'API key' });
    expect(r.code).toBe(130);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });

  it('on a terminal with CI set, or with --no-input, it does not prompt either', async () => {
    for (const [args, env] of [
      [['auth', 'login'], { CI: 'true' }],
      [['auth', 'login', '--no-input'], {}],
      [['assets', 'get', '--no-input'], {}],
    ] as const) {
      const r = await runAdopsTty(args, { env: { ADOPS_CONFIG_DIR: tempConfigDir(), ...env }, timeoutMs: 8_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
    }
  });

  it('status says when an environment variable overrides the stored login', async () => {
    const r = await run(['auth', 'status'], { ADOPS_API_KEY: DEMO.globex });
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'env', envOverrides: ['ADOPS_API_KEY'] });
    const tty = await runAdopsTty(['auth', 'status'], { env: envFor({ ADOPS_API_KEY: DEMO.globex }) });
    expect(tty.stdout).toMatch(/ADOPS_API_KEY is set and overrides the stored login/);
    expect(tty.stdout).not.toContain(DEMO.globex);
  });
});

describe('sandbox serve, last', () => {
  it('stops cleanly on SIGINT with exit 0', async () => {
    expect(await child.stop('SIGINT')).toBe(0);
  });
});
