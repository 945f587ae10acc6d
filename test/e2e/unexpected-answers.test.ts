// Answers that are not what they claim, from real loopback servers, through
// the BUILT binary: a 2xx that is not JSON (a captive portal's HTML) is never
// success; Retry-After 0 / negative / past never makes a retry storm; a
// --debug stack trace of a 500 with hostile text goes through the sanitizer.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { loopbackServer } from '../helpers/drop-proxy.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const KEY = 'acr_test_full_0001';
const PORTAL = '<!doctype html><html><head><title>Hotel WiFi</title></head><body>Please log in</body></html>';
const portalHits: string[] = [];
const portal = loopbackServer((req, res) => {
  portalHits.push(`${req.method} ${req.url}`);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(PORTAL);
});

// Each path answers its own refusal; the times of every hit are kept, on the clock of the run that sends them:
// the retry tests run on a virtual clock (their 0.25-5 s waits are instant), and the gaps between hits are
// the waits that clock was asked for.
const hits = new Map<string, number[]>();
let now = () => Date.now();
const PAST = new Date(Date.now() - 3_600_000).toUTCString();
const HOSTILE = 'boom \u001b]0;pwned\u0007\u001b[2J\u009b31m\u202etxt.exe\u202c end';
const flaky = loopbackServer((req, res) => {
  const path = (req.url ?? '').split('?')[0]!;
  hits.set(path, [...(hits.get(path) ?? []), now()]);
  if (path === '/observe/retry-zero')
    return res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":"unavailable","message":"later"}');
  if (path === '/observe/retry-negative')
    return res.writeHead(503, { 'retry-after': '-5', 'content-type': 'application/json' }).end('{"error":"unavailable","message":"later"}');
  if (path === '/observe/retry-past')
    return res.writeHead(429, { 'retry-after': PAST, 'content-type': 'application/json' }).end('{"error":"rate_limited","message":"slow down"}');
  res.writeHead(500, { 'content-type': 'text/plain' });
  res.end(HOSTILE);
});

const env = (url: string, extra: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: url, ADOPS_API_KEY: KEY, ...extra });

beforeAll(() => ensureBuilt());

describe('a 2xx answer that is not JSON is not success', () => {
  it('a list with --output json: exit 1 "unexpected answer (text/html)", nothing on stdout', async () => {
    const r = await runAdopsInProcess(['observe', 'campaigns', 'list', '--output', 'json'], { env: env(portal.url) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unexpected answer \(text\/html\)/);
    expect(r.stderr).not.toContain('Please log in');
  });

  it('a mutation: exit 1, the HTML is not printed as its result', async () => {
    const r = await runAdopsInProcess(['mutations', 'pause', 'acc_1', '--campaign', '1'], { env: env(portal.url) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unexpected answer \(text\/html\)/);
  });

  it('auth login: exit 1 and nothing stored', async () => {
    const cfg = tempConfigDir();
    const r = await runAdopsInProcess(['auth', 'login', '--with-key', '--url', portal.url], { env: { ADOPS_CONFIG_DIR: cfg }, stdin: KEY });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/unexpected answer \(text\/html\)/);
    expect(r.stderr).not.toMatch(/Logged in/);
    const stored = existsSync(cfg) ? readFileSync(join(cfg, 'config.json'), 'utf8') : '';
    expect(stored).not.toContain(KEY);
    expect(portalHits.length).toBeGreaterThan(0);
  });
});

describe('Retry-After never shortens a wait below the schedule', () => {
  it('503 with Retry-After 0 or -5: every retry waits at least the base delay (250 ms)', async () => {
    for (const path of ['/observe/retry-zero', '/observe/retry-negative']) {
      const clock = virtualClock(Date.now());
      now = clock.now;
      const r = await runAdopsInProcess(['api', 'GET', path], { env: env(flaky.url), clock });
      expect(r.code, r.stderr).toBe(6);
      const times = hits.get(path)!;
      expect(times).toHaveLength(4);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      for (const gap of gaps) expect(gap, `${path}: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(240);
    }
  });

  it('429 with Retry-After in the past: the retry waits the throttle schedule (5 s), not 0', async () => {
    const clock = virtualClock(Date.now());
    now = clock.now;
    const r = await runAdopsInProcess(['api', 'GET', '/observe/retry-past', '--retries', '1'], { env: env(flaky.url), clock });
    expect(r.code, r.stderr).toBe(6);
    const times = hits.get('/observe/retry-past')!;
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(4_900);
  });
});

describe('--debug traces are sanitized', () => {
  it('a 500 with escape sequences in its text body: the stack trace holds none of them', async () => {
    const r = await runAdopsInProcess(['--debug', 'api', 'GET', '/observe/hostile'], { env: env(flaky.url) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/\n\s+at /); // the stack is there
    expect(r.stderr).toContain('txt.exe');
    expect(r.stderr).not.toMatch(/[\u0007\u001b\u009b\u202e\u202c]/);
  });
});
