// Every exit code from a real case (docs/exit-codes.md), and the key never in
// the argv of a running process.
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ROOT, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { run, stub, useLoggedInSandbox } from './cli-fixture.js';

useLoggedInSandbox();

describe('exit codes from real cases', () => {
  it('0 success, 2 usage before any request', async () => {
    expect((await run(['mutations', 'list'])).code).toBe(0);
    expect((await run(['assets', 'list', '--limit', '0'])).code).toBe(2);
    expect((await run(['assets', 'list', '--bogus'])).code).toBe(2);
    const missing = await run(['assets', 'get']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing argument <id>/);
    const insecure = await run(['assets', 'list'], { ADOPS_BASE_URL: 'http://api.example.com' });
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toMatch(/refusing to send the API key over plain http/);
  });

  it('3 for 401, 402 (with the paywall URL) and 403', async () => {
    expect((await run(['assets', 'list'], { ADOPS_API_KEY: DEMO.revoked })).code).toBe(3);
    const unpaid = await run(['assets', 'list'], { ADOPS_API_KEY: DEMO.unsubscribed });
    expect(unpaid.code).toBe(3);
    expect(unpaid.stderr).toMatch(/organization_unentitled[\s\S]*subscribes at http/);
    expect((await run(['assets', 'list'], { ADOPS_API_KEY: DEMO.observeOnly })).code).toBe(3);
    expect((await run(['assets', 'list'], { ADOPS_API_KEY: undefined, ADOPS_PROFILE: 'nobody' })).code).toBe(3);
  });

  it('4 not found, with a hostile id kept inside its path segment', async () => {
    const r = await run(['assets', 'get', '../mutations?x=1#y', '--debug']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('/assets/..%2Fmutations%3Fx%3D1%23y');
  });

  it('5 conflict: a mutation on a disconnected advertiser', async () => {
    const r = await run([
      'api',
      'POST',
      '/mutations',
      '-f',
      'advertiserId=acc_acme_b_disconnected',
      '-f',
      'action=pause',
      '-f',
      'target.type=campaign',
      '-f',
      'target.id=1',
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/provider_not_connected[\s\S]*reconnects/);
  });

  it('6 when the service cannot be reached after retries', async () => {
    const r = await run(['assets', 'list', '--retries', '1', '--retry-budget', '2'], { ADOPS_BASE_URL: 'http://127.0.0.1:1' });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/cannot connect/);
  });

  it('7 content refused (400 invalid_cursor), JSON error object with --json', async () => {
    const r = await run(['assets', 'list', '--cursor', 'garbage', '--json']);
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'invalid_cursor', status: 400, exitCode: 7, retryable: false });
    expect(r.stdout).toBe('');
  });

  it('1 for an unexpected answer (500)', async () => {
    const r = await run(['api', 'GET', '/boom'], { ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full });
    expect(r.code).toBe(1);
  });

  it('8 when a waited-for mutation is still running at the timeout, 9 when it failed', async () => {
    // --timeout 1, not less: at load ~15 a 0.3 s bound ended before the first answer came (nothing on stdout).
    const waiting = await run(['mutations', 'get', 'mut_running', '--wait', '--timeout', '1', '--interval', '0.1'], {
      ADOPS_BASE_URL: stub.url,
      ADOPS_API_KEY: DEMO.full,
    });
    expect(waiting.code).toBe(8);
    expect(JSON.parse(waiting.stdout)).toMatchObject({ state: 'running', novelField: 1 });
    const started = await run([
      'api',
      'POST',
      '/mutations',
      '-f',
      'advertiserId=acc_acme_a_001',
      '-f',
      'action=pause',
      '-f',
      'target.type=campaign',
      '-f',
      'target.id=no-such-campaign',
    ]);
    expect(started.code, started.stderr).toBe(0);
    const failed = await run(['mutations', 'get', JSON.parse(started.stdout).id, '--wait', '--interval', '0.1', '--timeout', '20']);
    expect(failed.code).toBe(9);
    expect(JSON.parse(failed.stdout).state).toBe('failed');
  });

  it('130 on Ctrl-C; the key is never in the argv of a running process', async () => {
    const dir = tempConfigDir();
    await runAdopsInProcess(['auth', 'login', '--with-key', '--no-verify', '--url', stub.url], { env: { ADOPS_CONFIG_DIR: dir }, stdin: DEMO.full });
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/hang', '--debug'], {
      cwd: ROOT,
      env: baseEnv({ ADOPS_CONFIG_DIR: dir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 100 && !stub.requests.some((q) => q.url.startsWith('/hang')); i++) await new Promise((r) => setTimeout(r, 50));
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(argv).toContain('/hang');
    // The argv of `sandbox serve --login`, which writes a key: cli-login-auth.test.ts.
    expect(argv).not.toContain('acr_');
    expect(stub.requests.find((q) => q.url.startsWith('/hang'))?.authorization).toBe(`Bearer ${DEMO.full}`);
    expect(stderr).toContain('Bearer REDACTED');
    expect(stderr).not.toContain(DEMO.full);
  });
});
