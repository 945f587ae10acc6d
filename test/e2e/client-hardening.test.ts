// Issue 9 hardening, through the built binary against a real sandbox: keys
// with stray characters, dot-segment ids, a taken port, login's base URL and
// failed checks, unknown profiles, *.localhost, SIGTERM.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

let sandbox: DemoSandbox;
let proxy: FaultProxy;
let redirector: Server;
let redirectUrl: string;
const env = (extra: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: sandbox.url, ...extra });

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startDemoSandbox();
  proxy = await startFaultProxy(sandbox.url);
  redirector = createServer((_req, res) => {
    res.writeHead(302, { location: 'https://elsewhere.example/login' });
    res.end();
  });
  await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
  redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  redirector?.closeAllConnections();
  await new Promise((r) => redirector?.close(r));
  await sandbox?.stop();
});

describe('keys with stray characters', () => {
  it('a key with a trailing CRLF works, and --debug never prints it', async () => {
    const r = await runAdopsInProcess(['observe', 'campaigns', '--limit', '1', '--debug'], { env: env({ ADOPS_API_KEY: `${DEMO.full}\r\n` }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(DEMO.full);
    expect(r.stderr).toContain('Bearer REDACTED');
  });

  it('a key with a CR inside is refused at once with exit 3, not retried as a network failure', async () => {
    const r = await runAdopsInProcess(['observe', 'campaigns', '--limit', '1', '--debug'], { env: env({ ADOPS_API_KEY: `acr_demo\racme_full_0001` }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/ADOPS_API_KEY/);
    expect(r.stderr).not.toMatch(/retry|network/i);
    expect(r.stderr).not.toContain('acme_full_0001');
  });
});

describe('--debug and upload tokens', () => {
  it('never prints the token of an upload URL, which sits in its path', async () => {
    const e = env({ ADOPS_API_KEY: DEMO.full });
    const reserved = await runAdopsInProcess(['api', 'POST', '/assets/uploads', '-f', 'filename=x.png', '--json'], { env: e });
    expect(reserved.code, reserved.stderr).toBe(0);
    const uploadUrl = (JSON.parse(reserved.stdout) as { uploadUrl: string }).uploadUrl;
    const token = uploadUrl.split('/').at(-1)!;
    expect(token.length).toBeGreaterThan(20);
    const r = await runAdopsInProcess(['api', 'GET', uploadUrl, '--debug'], { env: e });
    expect(r.stderr).toContain('/_storage/uploads/REDACTED');
    expect(r.stdout + r.stderr).not.toContain(token);
  });
});

describe('ids that are dot segments', () => {
  it('`assets get ..` asks for an asset named "..", not GET / (percent-encoded on the wire)', async () => {
    proxy.setPlan(() => 'pass');
    const before = proxy.seen.length;
    const r = await runAdopsInProcess(['assets', 'get', '..'], { env: env({ ADOPS_BASE_URL: proxy.url, ADOPS_API_KEY: DEMO.full }) });
    expect(proxy.seen.slice(before).map((s) => s.url)).toEqual(['/assets/%2E%2E']);
    expect(r.code).not.toBe(0);
  });
});

describe('sandbox serve', () => {
  it('on a taken port says so and suggests --port 0 (exit 2), not "a bug in adops"', async () => {
    const port = new URL(sandbox.url).port;
    const r = await runAdopsInProcess(['sandbox', 'serve', '--port', port, '--data', ':memory:'], { env: env(), timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`port ${port} is already taken`));
    expect(r.stderr).toMatch(/--port 0/);
    expect(r.stderr).not.toMatch(/bug in adops/);
  });
});

describe('auth login', () => {
  it('takes ADOPS_BASE_URL when --url is absent', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsInProcess(['auth', 'login', '--with-key'], {
      env: { ADOPS_CONFIG_DIR: dir, ADOPS_BASE_URL: sandbox.url },
      stdin: `${DEMO.full}\r\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default;
    expect(stored).toEqual({ baseUrl: sandbox.url, apiKey: DEMO.full });
  });

  it('off a terminal with neither --url nor ADOPS_BASE_URL is a usage error, not a silent default', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsInProcess(['auth', 'login', '--with-key'], { env: { ADOPS_CONFIG_DIR: dir }, stdin: DEMO.full });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--url/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a check answered by a redirect stores nothing', async () => {
    const dir = tempConfigDir();
    const r = await runAdopsInProcess(['auth', 'login', '--with-key', '--url', redirectUrl], { env: { ADOPS_CONFIG_DIR: dir }, stdin: DEMO.full });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nothing was stored/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('profiles and base URLs', () => {
  it('--profile naming no profile says so', async () => {
    const r = await runAdopsInProcess(['observe', 'campaigns', '--profile', 'nope'], { env: env({ ADOPS_API_KEY: DEMO.full }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no profile named "nope"/);
  });

  it('http://evil.localhost is not loopback: refused before any request', async () => {
    const r = await runAdopsInProcess(['observe', 'campaigns'], { env: env({ ADOPS_API_KEY: DEMO.full, ADOPS_BASE_URL: 'http://evil.localhost:4010' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plain http/);
  });
});

describe('signals', () => {
  it('SIGTERM during a request exits 143', async () => {
    proxy.setPlan(() => 'stall');
    const child = spawn(process.execPath, [BIN, 'observe', 'campaigns', '--all'], {
      cwd: ROOT,
      env: baseEnv(env({ ADOPS_BASE_URL: proxy.url, ADOPS_API_KEY: DEMO.full })),
      stdio: 'ignore',
    });
    const started = Date.now();
    while (!proxy.seen.some((s) => s.fault === 'stall') && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    proxy.setPlan(() => 'pass');
    expect(code).toBe(143);
  });
});
