// Evidence that lists, gets and uploads end correctly when the network or a
// provider misbehaves: the built binary (and, for uploads, the client, as no
// upload command exists yet) against a real sandbox behind a loopback fault
// proxy. Every outcome is either complete (nothing lost, nothing doubled) or
// a clear error carrying the cursor to resume from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, closeAllPools } from '../../src/client/http.js';
import { NetworkError } from '../../src/client/errors.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../helpers/fault-proxy.js';
import { DEMO, ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { virtualClock } from '../helpers/virtual-clock.js';

let sandbox: DemoSandbox;
let proxy: FaultProxy;
let storage: FaultProxy;
let allIds: string[];
const LIVE = 'acc_acme_a_001';

const env = (extra: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: proxy.url, ADOPS_API_KEY: DEMO.full, ...extra });
const ids = (ndjson: string) =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((l) => String((JSON.parse(l) as { id: unknown }).id));
/** Fault `fault` on the listed request numbers (1-based), pass otherwise. */
const on =
  (fault: Fault, ...at: number[]) =>
  (_req: unknown, n: number): Fault =>
    at.includes(n) ? fault : 'pass';

/**
 * The run's clock for a run that retries: its back-off waits move a virtual clock instead of costing real seconds.
 * Only for reads: none of these waits for the sandbox to move on its own (it runs on the real clock).
 */
const backOff = () => virtualClock(Date.now());

async function setFaults(provider: string, faults: Record<string, unknown>) {
  const res = await fetch(`${sandbox.url}/_sandbox/faults/${provider}`, {
    method: 'PUT',
    body: JSON.stringify({ errorRate: 0, latencyMs: 0, rateLimitPerMinute: null, seed: 1, ...faults }),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startDemoSandbox();
  proxy = await startFaultProxy(sandbox.url);
  storage = await startFaultProxy(sandbox.url);
  const all = await runAdopsInProcess(['observe', 'campaigns', '--all', '--limit', '500', '-o', 'ndjson'], { env: env() });
  expect(all.code, all.stderr).toBe(0);
  allIds = ids(all.stdout);
  expect(allIds.length).toBeGreaterThan(20);
}, 60_000);

afterAll(async () => {
  await closeAllPools();
  await proxy?.close();
  await storage?.close();
  await sandbox?.stop();
});

describe('lists (--all) through a faulty network', () => {
  for (const fault of ['reset', 'stall', 'cut-after-forward', 'cut-mid-body'] as const) {
    it(`${fault} on page 3: retried, every row exactly once`, async () => {
      proxy.setPlan(on(fault, 3));
      const r = await runAdopsInProcess(['observe', 'campaigns', '--all', '--limit', '20', '-o', 'ndjson', '--request-timeout', '1'], {
        env: env(),
        timeoutMs: 20_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual(allIds);
    });
  }

  it('a page that keeps failing stops with exit 6 and the cursor; resuming gives the rest, none twice', async () => {
    proxy.setPlan((req, n) => (n >= 3 ? 'reset' : 'pass'));
    const first = await runAdopsInProcess(['observe', 'campaigns', '--all', '--limit', '20', '-o', 'ndjson'], {
      env: env(),
      timeoutMs: 30_000,
      clock: backOff(),
    });
    expect(first.code).toBe(6);
    // -o ndjson: the failure is one JSON object on stderr, with the cursor.
    const cursor = (JSON.parse(first.stderr) as { error: { nextCursor?: string } }).error.nextCursor;
    expect(cursor, first.stderr).toBeDefined();
    proxy.setPlan(() => 'pass');
    const rest = await runAdopsInProcess(['observe', 'campaigns', '--all', '--limit', '20', '-o', 'ndjson', '--cursor', cursor!], { env: env() });
    expect(rest.code, rest.stderr).toBe(0);
    expect([...ids(first.stdout), ...ids(rest.stdout)]).toEqual(allIds);
  });
});

describe('gets through a faulty network', () => {
  it('a get whose answer was lost is asked again and answers once', async () => {
    const id = allIds[0]!;
    proxy.setPlan(on('cut-after-forward', 1));
    const before = proxy.seen.length;
    const r = await runAdopsInProcess(['observe', 'campaigns', '--ids', id, '-o', 'ndjson'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual([id]);
    expect(proxy.seen.slice(before).map((s) => s.fault)).toEqual(['cut-after-forward', 'pass']);
  });
});

describe('uploads by PUT through a faulty network', () => {
  const client = () => new ApiClient({ baseUrl: proxy.url, apiKey: DEMO.full, userAgent: 'adops-test', requestTimeoutMs: 1000 });
  const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const png = Buffer.concat([PNG, Buffer.from('1f15c4890000000a49444154789c6300010000050001', 'hex'), Buffer.from('0d0a2db40000000049454e44ae426082', 'hex')]);

  async function reserve(c: ApiClient) {
    const res = await c.request<{ id: string; uploadUrl: string }>({ method: 'POST', path: '/assets/uploads', json: { filename: 'f.png' } });
    // Send the bytes through the storage proxy: another origin, so no key goes there.
    const u = new URL(res.body.uploadUrl);
    return { id: res.body.id, url: storage.url + u.pathname };
  }
  const put = (c: ApiClient, url: string) => c.request({ method: 'PUT', path: '/', url, body: () => png, contentType: 'image/png', contentLength: png.length });

  it('a PUT whose answer was lost is not resent blindly: a clear error, and the bytes that landed finalize once', async () => {
    const c = client();
    proxy.setPlan(() => 'pass');
    const { id, url } = await reserve(c);
    storage.setPlan(on('cut-after-forward', 1));
    const err = await put(c, url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ kind: 'lost', sent: true });
    const fin = await c.request<{ state: string }>({ method: 'POST', path: `/assets/${id}/finalize` });
    expect(fin.body.state).toBe('ready');
  });

  it('a PUT reset before it was forwarded fails clearly; sending again lands it once', async () => {
    const c = client();
    const { id, url } = await reserve(c);
    storage.setPlan(on('reset', 1));
    await expect(put(c, url)).rejects.toBeInstanceOf(NetworkError);
    await put(c, url);
    const fin = await c.request<{ state: string }>({ method: 'POST', path: `/assets/${id}/finalize` });
    expect(fin.body.state).toBe('ready');
    expect(storage.seen.length).toBeGreaterThan(0);
    expect(storage.seen.some((s) => s.auth)).toBe(false);
  });
});

describe('provider faults (sandbox fault injection) on a live list', () => {
  it('at 30% errors --all returns every row exactly once, or stops with a resume cursor', async () => {
    proxy.setPlan(() => 'pass');
    await setFaults('provider_a', {});
    const clean = await runAdopsInProcess(['observe', 'campaigns', '--live', LIVE, '--all', '--limit', '3', '-o', 'ndjson'], { env: env() });
    expect(clean.code, clean.stderr).toBe(0);
    const expected = ids(clean.stdout);
    await setFaults('provider_a', { errorRate: 0.3, seed: 7 });
    const r = await runAdopsInProcess(['observe', 'campaigns', '--live', LIVE, '--all', '--limit', '3', '-o', 'ndjson'], {
      env: env(),
      timeoutMs: 60_000,
      clock: backOff(),
    });
    const got = ids(r.stdout);
    expect(new Set(got).size).toBe(got.length);
    if (r.code === 0) expect(got).toEqual(expected);
    else {
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/^next cursor: \S+$/m);
      expect(expected.slice(0, got.length)).toEqual(got);
    }
  });

  it('at 100% errors it exits 6 in bounded time', async () => {
    await setFaults('provider_a', { errorRate: 1 });
    const clock = backOff();
    const started = clock.now();
    const r = await runAdopsInProcess(['observe', 'campaigns', '--live', LIVE, '--all', '-o', 'ndjson'], { env: env(), timeoutMs: 40_000, clock });
    await setFaults('provider_a', {});
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/provider_error/);
    // Bounded by the retry budget (30 s), on the run's own clock.
    expect(clock.now() - started).toBeLessThanOrEqual(30_000);
  });
});
