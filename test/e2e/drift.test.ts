// `adops observe drift`: the built binary against the demo sandbox in this process (the demo
// world), and against a loopback stub for a provider that cannot read live (501).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { useDemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

const A = 'acc_acme_a_001';
const cfg = tempConfigDir();
const cli = (args: readonly string[], base = sandbox.url) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: base, ADOPS_API_KEY: DEMO.full }, timeoutMs: 30_000 });
const drift = async (...args: string[]) => {
  const r = await cli(['observe', 'drift', ...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<{ id: string; name: string; field: string; stored: unknown; live: unknown }>;
};
const ingest = async () => expect((await fetch(`${sandbox.url}/_sandbox/ingest`, { method: 'POST' })).status).toBe(200);
const campaigns = async (query: string) =>
  JSON.parse((await cli(['observe', 'campaigns', '--advertiser', A, '--limit', '200', '-o', 'json', '--query', query])).stdout);

const sandbox = useDemoSandbox();

describe('observe drift', () => {
  it('is in sync on a freshly ingested world: fields the stored copy never carries are not drift', async () => {
    expect(await drift(A)).toEqual([]);
    expect(await drift(A, '--level', 'ad-groups')).toEqual([]);
    // …although the live reads carry them (bidStrategy of campaigns, bidAmount of ad groups).
    const live = await cli(['observe', 'ad-groups', '--live', A, '--limit', '200', '-o', 'json', '--query', '[?bidAmount!=null] | length(@)']);
    expect(Number(live.stdout)).toBeGreaterThan(0);
    const bad = await cli(['observe', 'drift', A, '--compare', 'bidAmount']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/never carry bidAmount/);
    for (const compare of ['', 'spend']) expect((await cli(['observe', 'drift', A, '--compare', compare])).code, compare).toBe(2);
  });

  it('pause, then ingest: status drift until ingestion catches up; --exit-code says so', async () => {
    const id = (await campaigns("[?status=='ACTIVE'] | [0].id")) as string;
    // Set-up changes poll every 0.1 s (--interval), not the default 2 s: how the wait polls is not what is tested here.
    const paused = await cli(['mutations', 'pause', A, '--campaign', id, '--wait', '--interval', '0.1', '-o', 'json']);
    expect(paused.code, paused.stderr).toBe(0);
    const before = await drift(A);
    expect(before).toContainEqual(expect.objectContaining({ id, field: 'status', stored: 'ACTIVE', live: 'PAUSED' }));
    const flagged = await cli(['observe', 'drift', A, '--compare', 'status', '--exit-code', '-o', 'ndjson']);
    expect(flagged.code).toBe(11);
    expect(flagged.stdout).toContain(`"id":"${id}"`);
    await ingest();
    expect((await drift(A)).filter((r) => r.id === id)).toEqual([]);
    const clean = await cli(['observe', 'drift', A, '--compare', 'status', '--exit-code', '-o', 'ndjson']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe('');
  });

  it('budget only, then ingest: the stored budget still lags (budget rule 5), in every output format', async () => {
    const [id, budget] = (await campaigns("[?budgetLevel=='campaign' && budget!=null && status=='ACTIVE'] | [0].[id, budget]")) as [string, number];
    const changed = await cli(['mutations', 'budget', A, '--campaign', id, '--amount', String(budget + 7), '--wait', '--interval', '0.1', '-o', 'json']);
    expect(changed.code, changed.stderr).toBe(0);
    await ingest();
    const rows = (await drift(A)).filter((r) => r.id === id);
    expect(rows).toEqual([{ id, name: expect.any(String), field: 'budget', stored: budget, live: budget + 7 }]);

    const csv = await cli(['observe', 'drift', A, '--compare', 'budget', '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('id,name,field,stored,live');
    expect(csv.stdout).toContain(`${id},`);
    expect(csv.stdout).toContain(`,budget,${budget},${budget + 7}\n`);
    const nd = await cli(['observe', 'drift', A, '--compare', 'budget', '-o', 'ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toContainEqual(expect.objectContaining({ id, field: 'budget' }));
    const table = await runAdopsTty(['observe', 'drift', A, '--compare', 'budget'], {
      env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, NO_COLOR: '1' },
    });
    expect(table.stdout).toMatch(/id\s.*name\s.*field\s.*stored\s.*live/);
    expect(table.stdout).toContain(id);
    const picked = await cli(['observe', 'drift', A, '--compare', 'budget', '--fields', 'id,live', '-o', 'json']);
    expect(JSON.parse(picked.stdout)).toContainEqual({ id, live: budget + 7 });
  });

  describe('a provider the stored copy does not hold (provider_d: stored rows carry provider_a, b or c only) is not drift (#25)', () => {
    const D = 'acc_acme_d_001';
    it('the advertiser is provider_d, with live rows and no stored ones', async () => {
      const live = await cli(['observe', 'campaigns', '--live', D, '--limit', '200', '-o', 'json', '--query', '[].provider']);
      expect(live.code, live.stderr).toBe(0);
      const providers = JSON.parse(live.stdout) as string[];
      expect(providers.length).toBeGreaterThan(0);
      expect(new Set(providers)).toEqual(new Set(['provider_d']));
      const stored = await cli(['observe', 'campaigns', '--advertiser', D, '-o', 'json']);
      expect(JSON.parse(stored.stdout)).toEqual([]);
    });

    for (const level of ['campaigns', 'ad-groups'] as const) {
      it(`--level ${level} --exit-code: no drift rows, exit 0 (was 11 for ever), and one note on stderr`, async () => {
        const r = await cli(['observe', 'drift', D, '--level', level, '--exit-code', '-o', 'ndjson']);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toBe('');
        const notes = r.stderr.split('\n').filter((l) => l.includes('does not hold'));
        expect(notes).toHaveLength(1);
        expect(notes[0]).toMatch(/the stored copy does not hold provider_d/);
        expect(notes[0]).toContain(D);
      });
    }
  });

  it('an advertiser without a usable connection: 409 with its code, exit 5, no rows', async () => {
    const r = await cli(['observe', 'drift', 'acc_acme_b_disconnected', '-o', 'json']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('provider_not_connected');
  });

  it('an advertiser whose provider cannot read live: 501 with its code, exit 7, no rows in any format', async () => {
    // The demo world has no such provider for campaigns, so a loopback server plays a deployment that has one.
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.url!);
      res.writeHead(req.url!.startsWith('/observe/acc_') ? 501 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          req.url!.startsWith('/observe/acc_')
            ? { error: 'live_read_unsupported', message: 'The service cannot read campaigns live from this provider.', provider: 'provider_e' }
            : { data: [{ id: '1', name: 'stored only', status: 'ACTIVE' }] },
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const format of ['json', 'ndjson', 'csv', 'table']) {
        const r = await cli(['observe', 'drift', 'acc_e_001', '-o', format, '--exit-code'], url);
        expect(r.code, r.stderr).toBe(7);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/live_read_unsupported/);
      }
      expect(seen.every((u) => u.startsWith('/observe/acc_e_001/campaigns'))).toBe(true);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
