// Issue 13 item 21: `--wait --timeout 1` against a slow provider exits 8 at
// about one second. Two halves: the sandbox answers a read of a mutation at
// once while its provider applies the change (the demo sandbox on loopback,
// provider latency 3 s), and the CLI's --timeout cuts off a poll the service
// holds open (a stub that never answers the poll).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { request } from '../helpers/sandbox.js';

const ACC = 'acc_acme_a_001';

beforeAll(() => ensureBuilt(), 60_000);

describe('mutations pause --wait --timeout 1 against a slow provider', () => {
  let child: DemoSandbox;
  beforeAll(async () => {
    child = await startDemoSandbox();
  }, 60_000);
  afterAll(async () => {
    await child?.stop();
  });

  it('exits 8 at about 1 s, the mutation still running (the provider takes 3 s)', async () => {
    const campaigns = await request(child.url, 'GET', '/observe/campaigns', { key: DEMO.full, query: { advertiserId: ACC, limit: 1 } });
    const id = campaigns.body.data[0].id as string;
    const provider = campaigns.body.data[0].provider as string;
    expect(
      (await request(child.url, 'PUT', `/_sandbox/faults/${provider}`, { body: { errorRate: 0, latencyMs: 3000, rateLimitPerMinute: null } })).status,
    ).toBe(200);
    const r = await runAdopsInProcess(['mutations', 'pause', ACC, '--campaign', id, '--wait', '--timeout', '1', '--interval', '0.1', '--output', 'json'], {
      env: { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: child.url, ADOPS_API_KEY: DEMO.full },
      timeoutMs: 20_000,
    });
    expect(r.code, r.stderr).toBe(8);
    expect(JSON.parse(r.stdout).state).toBe('running');
    expect(r.stderr).toMatch(/still running after 1 s; check again with `adops mutations watch mut_\w+`/);
    // Start-up, the start and one second of polling. The old sandbox held the first poll until the provider was done
    // (3.3 s in): --timeout then cut that poll at 1 s and nothing was printed, so the `running` above is the check.
    expect(r.ms).toBeLessThan(5_500);
  }, 30_000);
});

describe('--timeout bounds a poll in flight', () => {
  let server: Server;
  let url = '';
  let firstPollAt = 0;
  beforeAll(async () => {
    // Starts the mutation; then every poll of it is held open, never answered.
    server = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/mutations') {
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'mut_slow', state: 'pending' }));
        return;
      }
      if (req.url === '/mutations/mut_slow') {
        firstPollAt ||= Date.now();
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not_found', message: 'No operation answers this path.' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('exits 8 at about 1 s although the poll never answers; stdout stays empty (no state was read)', async () => {
    const t0 = Date.now();
    const r = await runAdopsInProcess(['mutations', 'pause', ACC, '--campaign', '123', '--wait', '--timeout', '1', '--output', 'json'], {
      env: { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: url, ADOPS_API_KEY: DEMO.full },
      timeoutMs: 20_000,
    });
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/after 1 s; check again with `adops mutations watch mut_slow`/);
    // From the first poll to the exit: the second of --timeout, not the poll's (endless) time.
    expect(firstPollAt).toBeGreaterThan(0);
    expect(t0 + r.ms - firstPollAt).toBeLessThan(1_800);
  }, 30_000);
});
