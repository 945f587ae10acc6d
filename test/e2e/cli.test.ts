// The built adops binary as a user runs it, against a sandbox child started
// here: login without copying keys, output piped and on a terminal, every
// exit code from a real case, no prompt blocking a non-TTY run, and the key
// never in stdout, stderr, debug traces or argv.
import { readFileSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, runAdops, runAdopsTty, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';
import { startStub, type Stub } from './stub-server.js';

let sandbox: SandboxChild;
let stub: Stub;
let cfg: string; // logged in through `sandbox serve --login`
const envFor = (extra: Record<string, string | undefined> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ...extra });
const run = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string) => runAdops(args, { env: envFor(extra), ...(stdin !== undefined ? { stdin } : {}) });

beforeAll(async () => {
  ensureBuilt();
  cfg = tempConfigDir();
  [sandbox, stub] = await Promise.all([startSandboxChild(['--login'], { ADOPS_CONFIG_DIR: cfg }), startStub()]);
}, 60_000);

afterAll(async () => {
  await stub?.close();
  await sandbox?.stop();
});

describe('a reader that leaves early', () => {
  it('`adops … | head -c 1` stops quietly with exit 0, no EPIPE stack', async () => {
    const { spawnSync } = await import('node:child_process');
    // Every page as ndjson (hundreds of rows) into a reader that takes one byte and leaves.
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" observe ad-groups --all --output ndjson | head -c 1 >/dev/null`], {
      env: baseEnv({ ADOPS_CONFIG_DIR: cfg }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js/);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('sandbox serve --login', () => {
  it('points the "sandbox" profile at itself with a demo key, 0600 in 0700', () => {
    const file = join(cfg, 'config.json');
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(data.currentProfile).toBe('sandbox');
    expect(data.profiles.sandbox).toMatchObject({ baseUrl: sandbox.url, apiKey: DEMO.full });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(cfg).mode & 0o777).toBe(0o700);
    expect(sandbox.stderr()).toMatch(/Demo API keys/);
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
    const r = await runAdops(['auth', 'login', '--with-key', '--url', sandbox.url], { env: { ADOPS_CONFIG_DIR: dir }, stdin: `${DEMO.globex}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(DEMO.globex);
    expect(r.stderr).toContain('acr_…0001');
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    const status = await runAdops(['auth', 'status', '--json'], { env: { ADOPS_CONFIG_DIR: dir } });
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'default', baseUrl: sandbox.url, key: 'acr_…0001', keySource: 'file', envOverrides: [] });
    expect(status.stdout).not.toContain(DEMO.globex);
    const out = await runAdops(['auth', 'logout'], { env: { ADOPS_CONFIG_DIR: dir } });
    expect(out.code).toBe(0);
    expect((await runAdops(['auth', 'status'], { env: { ADOPS_CONFIG_DIR: dir } })).code).toBe(3);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default).toEqual({ baseUrl: sandbox.url });
  });

  it('login refuses a key the service rejects (exit 3) and stores nothing', async () => {
    const dir = tempConfigDir();
    const r = await runAdops(['auth', 'login', '--with-key', '--url', sandbox.url], { env: { ADOPS_CONFIG_DIR: dir }, stdin: DEMO.revoked });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).not.toContain(DEMO.revoked);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });

  it('never blocks on a prompt without a terminal: login with stdin closed is a usage error', async () => {
    const r = await runAdops(['auth', 'login'], { env: { ADOPS_CONFIG_DIR: tempConfigDir() }, timeoutMs: 8_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-key/);
  });

  it('asks for the key with a hidden prompt on a terminal', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsTty(['auth', 'login', '--url', sandbox.url], { env: { ADOPS_CONFIG_DIR: dir }, input: `${DEMO.observeOnly}\r`, waitFor: 'API key' });
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
    for (const [args, env] of [[['auth', 'login'], { CI: 'true' }], [['auth', 'login', '--no-input'], {}], [['assets', 'get', '--no-input'], {}]] as const) {
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

describe('output', () => {
  it('is a table on a terminal (no colour under NO_COLOR) and JSON when piped', async () => {
    const tty = await runAdopsTty(['sandbox', 'keys'], { env: envFor({ NO_COLOR: '1' }) });
    expect(tty.stdout).toMatch(/┌.*┐/);
    expect(tty.stdout).not.toMatch(/\u001b\[3\dm/);
    const piped = await run(['sandbox', 'keys']);
    expect(JSON.parse(piped.stdout)[0]).toMatchObject({ key: DEMO.full, organization: 'org_acme' });
  });

  it('ndjson, csv and --fields select and order', async () => {
    const nd = await run(['sandbox', 'keys', '--output', 'ndjson', '--fields', 'label,organization']);
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(Object.keys(lines[0])).toEqual(['label', 'organization']);
    const csv = await run(['sandbox', 'keys', '--output', 'csv', '--fields', 'organization,label']);
    expect(csv.stdout.split('\n')[0]).toBe('organization,label');
    const bad = await run(['sandbox', 'keys', '--fields', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/known fields: key, organization, label, description/);
  });

  it('api --paginate streams every page as one JSON document, and a short run prints the next cursor', async () => {
    for (let i = 0; i < 3; i++) await run(['api', 'POST', '/assets/uploads', '-f', `filename=p${i}.png`]);
    const all = await run(['api', 'GET', '/assets', '-f', 'limit=1', '--paginate']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).length).toBeGreaterThanOrEqual(3);
    const one = await run(['assets', 'list', '--limit', '1']);
    expect(JSON.parse(one.stdout)).toHaveLength(1);
    const cursor = /next cursor: (\S+)/.exec(one.stderr)?.[1];
    expect(cursor).toBeTruthy();
    const resumed = await run(['assets', 'list', '--limit', '1', '--cursor', cursor!]);
    expect(JSON.parse(resumed.stdout)[0].id).not.toBe(JSON.parse(one.stdout)[0].id);
    const capped = await run(['assets', 'list', '--all', '--limit', '1', '--max', '2', '--output', 'ndjson']);
    expect(capped.stdout.trim().split('\n')).toHaveLength(2);
    expect(capped.stderr).toMatch(/next cursor: /);
  });
});

describe('doctor and config', () => {
  it('doctor passes with the sandbox login and names the missing permission otherwise (exit 3)', async () => {
    const ok = await run(['doctor', '--output', 'json']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).every((c: { ok: boolean }) => c.ok)).toBe(true);
    const limited = await run(['doctor', '--output', 'table'], { ADOPS_API_KEY: DEMO.observeOnly });
    expect(limited.code).toBe(3);
    expect(limited.stdout).toMatch(/✗ mutation:read[\s\S]*fix: /);
    const unpaid = await run(['doctor', '-o', 'table'], { ADOPS_API_KEY: DEMO.unsubscribed });
    expect(unpaid.stdout).toMatch(/✗ subscription/);
  });

  it('config set/get/list round-trip and refuse bad values before anything is written', async () => {
    const dir = tempConfigDir();
    const env = { ADOPS_CONFIG_DIR: dir };
    expect((await runAdops(['config', 'set', 'output', 'ndjson'], { env })).code).toBe(0);
    expect((await runAdops(['config', 'get', 'output'], { env })).stdout).toBe('ndjson\n');
    expect((await runAdops(['config', 'set', 'output', 'xml'], { env })).code).toBe(2);
    expect((await runAdops(['config', 'set', 'base-url', 'http://api.example.com'], { env })).code).toBe(2);
    expect((await runAdops(['config', 'set', 'nope', '1'], { env })).code).toBe(2);
    const list = await runAdops(['config', 'list'], { env });
    expect(list.stdout.trim().split('\n').map((l) => JSON.parse(l).key)).toContain('retry-budget');
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});

describe('streaming', () => {
  it('--paginate writes each page as it arrives: rows of page 1 are out before page 2 is served', async () => {
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/paged', '--paginate', '--output', 'json'], { cwd: ROOT, env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 200 && !out.includes('"id":"49"'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(out.startsWith('[')).toBe(true);
    expect(out).toContain('"id":"49"');
    expect(out).not.toContain('"id":"50"');
    stub.releasePage2();
    expect(await exited).toBe(0);
    const all = JSON.parse(out);
    expect(all).toHaveLength(100);
    expect(all[99]).toEqual({ id: '99', name: 'row 99', extra: { n: 99 } });
  });
});

describe('interrupted list', () => {
  it('Ctrl-C after a page: exit 130, the JSON document is closed, the cursor to resume is on stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/stuck', '--paginate'], { cwd: ROOT, env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 200 && !stub.requests.some((q) => q.url.includes('cursor=resume-here')); i++) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(JSON.parse(out)).toHaveLength(50);
    expect(err).toMatch(/interrupted[\s\S]*next cursor: resume-here/);
  });
});

describe('interrupted list, each format and signal', () => {
  const interrupt = async (format: string, signal: NodeJS.Signals) => {
    const before = stub.requests.filter((q) => q.url.includes('cursor=resume-here')).length;
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/stuck', '--paginate', '--output', format], { cwd: ROOT, env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 400 && stub.requests.filter((q) => q.url.includes('cursor=resume-here')).length === before; i++) await new Promise((r) => setTimeout(r, 25));
    child.kill(signal);
    return { code: await exited, out, err };
  };

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} after page 1: exit ${signal === 'SIGINT' ? 130 : 143}, valid partial json, ndjson and csv, the cursor to resume on stderr`, async () => {
      const expected = signal === 'SIGINT' ? 130 : 143;
      const json = await interrupt('json', signal);
      expect(json.code).toBe(expected);
      expect(JSON.parse(json.out)).toHaveLength(50);
      const nd = await interrupt('ndjson', signal);
      expect(nd.code).toBe(expected);
      const lines = nd.out.trim().split('\n');
      expect(lines).toHaveLength(50);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      const csv = await interrupt('csv', signal);
      expect(csv.code).toBe(expected);
      expect(csv.out.trim().split('\n')).toHaveLength(51); // header + 50 rows
      // A person reads "next cursor: …"; with --output json|ndjson the error object carries nextCursor.
      for (const r of [json, nd]) expect(JSON.parse(r.err.trim().split("\n").at(-1)!).error.nextCursor).toBe("resume-here");
      expect(csv.err).toMatch(/next cursor: resume-here/);
    });
  }
});

describe('observe', () => {
  it('stored read: json by default when piped, unknown fields kept, table with resource columns on a terminal', async () => {
    const r = await run(['observe', 'campaigns', '--limit', '3']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['advertiserId', 'id', 'budgetLevel', 'objective']));
    expect(r.stderr).toMatch(/next cursor: /);
    const tty = await runAdopsTty(['observe', 'campaigns', '--limit', '2'], { env: envFor({ NO_COLOR: '1' }) });
    expect(tty.code).toBe(0);
    const coloured = await runAdopsTty(['observe', 'campaigns', '--limit', '2'], { env: envFor() });
    expect(coloured.stdout).toMatch(/\u001b\[36m ?id/);
    expect(tty.stdout).toMatch(/│ id +│ name +│ provider +│ status +│ advertiserId/);
  });

  it('--all follows every cursor: json stays one document, ndjson one row per line, same rows', async () => {
    const json = await run(['observe', 'ad-groups', '--all', '--limit', '200']);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout);
    expect(rows.length).toBeGreaterThan(200);
    expect(json.stderr).not.toMatch(/next cursor/);
    const nd = await run(['observe', 'ad-groups', '--all', '--limit', '200', '--output', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(rows.map((x: { id: string }) => x.id));
  });

  it('filters map to the query; a live read goes to the advertiser path', async () => {
    const paused = await run(['observe', 'campaigns', '--status', 'PAUSED', '--provider', 'provider_a', '--limit', '20']);
    const rows = JSON.parse(paused.stdout);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x: { status: string; provider: string }) => x.status === 'PAUSED' && x.provider === 'provider_a')).toBe(true);
    const live = await run(['observe', 'campaigns', '--live', 'acc_acme_a_001', '--limit', '2', '--debug']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stderr).toContain('/observe/acc_acme_a_001/campaigns?limit=2');
    expect(JSON.parse(live.stdout)[0]).toMatchObject({ advertiserId: 'acc_acme_a_001', createdAt: null });
  });

  it('refuses stored-only filters on a live read before sending (2); 501 suggests the stored copy (7)', async () => {
    const both = await run(['observe', 'campaigns', '--live', 'acc_acme_a_001', '--provider', 'provider_a']);
    expect(both.code).toBe(2);
    const unsupported = await run(['observe', 'campaigns', '--live', 'acc_acme_a_001', '--status', 'ACTIVE']);
    expect(unsupported.code).toBe(7);
    expect(unsupported.stderr).toMatch(/live_read_unsupported \(501\)[\s\S]*hint: Read the stored copy/);
  });
});

describe('mutations start', () => {
  it('sends an Idempotency-Key and watches the change to its end', async () => {
    const list = await run(['observe', 'campaigns', '--advertiser', 'acc_acme_a_001', '--status', 'ACTIVE', '--limit', '1']);
    const campaign = JSON.parse(list.stdout)[0];
    const args = ['mutations', 'start', '--advertiser', 'acc_acme_a_001', '--action', 'pause', '-f', 'target.type=campaign', '-f', `target.id=${campaign.id}`, '--idempotency-key', `e2e-${campaign.id}`];
    const first = await run([...args, '--wait', '--interval', '0.1', '--timeout', '20']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ state: 'succeeded', target: { id: campaign.id } });
    // The sandbox honours the key: the same key and body answer the same mutation.
    const again = await run(args);
    expect(JSON.parse(again.stdout).id).toBe(JSON.parse(first.stdout).id);
  });
});

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
    const r = await run(['api', 'POST', '/mutations', '-f', 'advertiserId=acc_acme_b_disconnected', '-f', 'action=pause', '-f', 'target.type=campaign', '-f', 'target.id=1']);
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
    const waiting = await run(['mutations', 'get', 'mut_running', '--wait', '--timeout', '0.3', '--interval', '0.1'], { ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full });
    expect(waiting.code).toBe(8);
    expect(JSON.parse(waiting.stdout)).toMatchObject({ state: 'running', novelField: 1 });
    const started = await run(['api', 'POST', '/mutations', '-f', 'advertiserId=acc_acme_a_001', '-f', 'action=pause', '-f', 'target.type=campaign', '-f', 'target.id=no-such-campaign']);
    expect(started.code, started.stderr).toBe(0);
    const failed = await run(['mutations', 'get', JSON.parse(started.stdout).id, '--wait', '--interval', '0.1', '--timeout', '20']);
    expect(failed.code).toBe(9);
    expect(JSON.parse(failed.stdout).state).toBe('failed');
  });

  it('130 on Ctrl-C; the key is never in the argv of a running process', async () => {
    const dir = tempConfigDir();
    await runAdops(['auth', 'login', '--with-key', '--no-verify', '--url', stub.url], { env: { ADOPS_CONFIG_DIR: dir }, stdin: DEMO.full });
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/hang', '--debug'], { cwd: ROOT, env: baseEnv({ ADOPS_CONFIG_DIR: dir }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 100 && !stub.requests.some((q) => q.url.startsWith('/hang')); i++) await new Promise((r) => setTimeout(r, 50));
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
    const sandboxArgv = readFileSync(`/proc/${sandbox.process.pid}/cmdline`, 'utf8');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(argv).toContain('/hang');
    expect(argv + sandboxArgv).not.toContain('acr_');
    expect(stub.requests.find((q) => q.url.startsWith('/hang'))?.authorization).toBe(`Bearer ${DEMO.full}`);
    expect(stderr).toContain('Bearer REDACTED');
    expect(stderr).not.toContain(DEMO.full);
  });
});

describe('sandbox serve, last', () => {
  it('stops cleanly on SIGINT with exit 0', async () => {
    expect(await sandbox.stop('SIGINT')).toBe(0);
  });
});
