// Records about a service's objects are keyed by the service and the key (#25
// section 2): one change file, one set of assets, one plan applied to staging
// then to production (two sandboxes, two base URLs) reaches BOTH; a journal of
// the same service made with another key, or by an adops that recorded no
// service, stops the run (exit 2) naming it; two runs at once against the two
// services on one config dir double nothing and lose nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, runAdops, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { allMutations, campaignsOf, sandboxBehindProxy } from '../helpers/drop-proxy.js';
import { DEMO_WORLD } from '../helpers/sandbox.js';
import { png } from '../unit/uploads/media-samples.js';
import { tempDir } from '../helpers/temp.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';

const ACC = 'acc_acme_a_001';
const dir = tempDir('adops-h25-store-');
const staging = sandboxBehindProxy(DEMO_WORLD);
const production = sandboxBehindProxy(DEMO_WORLD);
let campaigns: string[] = [];

// In this process (one run after another: ~15 spawns of the binary before, ~0.5 s of CPU each); the two runs at once
// below stay two processes, as two shells would run them against one config dir and one journal.
const run = (cfg: string, url: string, args: string[], key: string = DEMO.full) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: url, ADOPS_API_KEY: key }, timeoutMs: 60_000 });
const spawned = (cfg: string, url: string, args: string[]) =>
  runAdops(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: url, ADOPS_API_KEY: DEMO.full }, timeoutMs: 60_000 });

const HEADER = 'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount,body';
function changeFile(tag: string, n: number): string {
  const file = join(dir, `${tag}.csv`);
  writeFileSync(
    file,
    [HEADER, ...Array.from({ length: n }, (_, i) => `${ACC},rename,campaign,${campaigns[i % campaigns.length]},${tag} ${i},,,,,`)].join('\n') + '\n',
  );
  return file;
}

/** How many mutations the service holds per name of this tag (each must be 1). */
async function made(t: typeof staging, tag: string): Promise<number[]> {
  const counts = new Map<string, number>();
  for (const m of await allMutations(t.sb, DEMO.full))
    if (typeof m.changes.name === 'string' && m.changes.name.startsWith(`${tag} `)) counts.set(m.changes.name, (counts.get(m.changes.name) ?? 0) + 1);
  return [...counts.values()];
}

const posts = (t: typeof staging) => t.proxy.seen.filter((x) => x.method === 'POST' && x.path.startsWith('/mutations')).length;

beforeAll(async () => {
  ensureBuilt();
  campaigns = (await campaignsOf(staging.sb, DEMO.full, ACC)).map((c) => c.id);
}, 60_000);

describe('mutations apply: one change file, two services', () => {
  it('applied to staging, then to production: production gets every mutation (not "pending, earlier run")', async () => {
    const cfg = tempConfigDir();
    const file = changeFile('stage-prod', 3);
    const a = await run(cfg, staging.proxy.url, ['mutations', 'apply', file, '--output', 'json']);
    expect(a.code, a.stderr).toBe(0);
    expect(await made(staging, 'stage-prod')).toEqual([1, 1, 1]);

    const b = await run(cfg, production.proxy.url, ['mutations', 'apply', file, '--output', 'json']);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).map((r: { sent: string }) => r.sent)).toEqual(['this run', 'this run', 'this run']);
    expect(await made(production, 'stage-prod')).toEqual([1, 1, 1]);
    // Never passed over in silence: the run says the journal also holds staging's rows.
    expect(b.stderr).toContain(`also records rows applied to ${staging.proxy.url}`);

    // Each service resumes from its own rows: again on either sends nothing.
    for (const t of [staging, production]) {
      t.proxy.seen.splice(0);
      const again = await run(cfg, t.proxy.url, ['mutations', 'apply', file, '--output', 'json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).every((r: { sent: string }) => r.sent === 'earlier run')).toBe(true);
      expect(posts(t)).toBe(0);
      expect(await made(t, 'stage-prod')).toEqual([1, 1, 1]);
    }
    // The journal names the service, and a fingerprint of the key, never the key.
    const journal = readFileSync(`${file}.adops-journal.ndjson`, 'utf8');
    expect(journal).toContain(production.proxy.url);
    expect(journal).not.toContain(DEMO.full);
  }, 120_000);

  it('a dry run against production plans to send every row', async () => {
    const cfg = tempConfigDir();
    const file = changeFile('dry-prod', 2);
    expect((await run(cfg, staging.proxy.url, ['mutations', 'apply', file])).code).toBe(0);
    const dry = await run(cfg, production.proxy.url, ['mutations', 'apply', file, '--dry-run', '--output', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).map((r: { state: string }) => r.state)).toEqual(['would send', 'would send']);
  }, 60_000);

  it('the same service with another key: exit 2 naming the journal, nothing sent', async () => {
    const cfg = tempConfigDir();
    const file = changeFile('other-key', 2);
    expect((await run(cfg, staging.proxy.url, ['mutations', 'apply', file])).code).toBe(0);
    staging.proxy.seen.splice(0);
    const r = await run(cfg, staging.proxy.url, ['mutations', 'apply', file], DEMO.globex);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the journal ${file}.adops-journal.ndjson records 2 rows applied to ${staging.proxy.url} with another key`);
    expect(r.stderr).toMatch(/--journal PATH/);
    expect(posts(staging)).toBe(0);
  }, 60_000);

  it('a journal of an older adops (no service recorded): exit 2 naming it, nothing sent', async () => {
    const cfg = tempConfigDir();
    const file = changeFile('legacy', 1);
    expect((await run(cfg, staging.proxy.url, ['mutations', 'apply', file])).code).toBe(0);
    const journal = `${file}.adops-journal.ndjson`;
    const legacy = readFileSync(journal, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const { service: _s, keyFp: _k, ...rest } = JSON.parse(l) as Record<string, unknown>;
        return JSON.stringify(rest);
      });
    writeFileSync(journal, legacy.join('\n') + '\n');
    production.proxy.seen.splice(0);
    const r = await run(cfg, production.proxy.url, ['mutations', 'apply', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the journal ${journal} records 1 row by an older adops`);
    expect(posts(production)).toBe(0);
  }, 60_000);

  it('two runs at once, one per service, on one config dir and one journal: each row once on each', async () => {
    const cfg = tempConfigDir();
    const file = changeFile('both-at-once', 12);
    const [a, b] = await Promise.all([
      spawned(cfg, staging.proxy.url, ['mutations', 'apply', file, '--output', 'json']),
      spawned(cfg, production.proxy.url, ['mutations', 'apply', file, '--output', 'json']),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    for (const t of [staging, production]) expect(await made(t, 'both-at-once')).toEqual(Array.from({ length: 12 }, () => 1));
  }, 120_000);
});

describe('uploads and plans: the same to two services', () => {
  it('assets upload of one file to staging then production: both hold it', async () => {
    const cfg = tempConfigDir();
    const p = join(dir, 'same.png');
    writeFileSync(p, png(7, 9));
    for (const t of [staging, production]) {
      const r = await run(cfg, t.proxy.url, ['assets', 'upload', p, '--output', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/already uploaded/);
      const [row] = JSON.parse(r.stdout) as Array<{ id: string; state: string }>;
      expect(row!.state).toBe('ready');
      expect((await t.sb.req('GET', `/assets/${row!.id}`, { key: DEMO.full })).status).toBe(200);
    }
  }, 60_000);

  it('plans apply of one plan to staging then production: both hold it', async () => {
    const cfg = tempConfigDir();
    const plan = join(dir, 'plan.json');
    const item = SOCIAL_LINE_ITEM;
    writeFileSync(
      plan,
      JSON.stringify({
        slug: 'h25-two',
        name: 'Two services',
        currency: 'USD',
        budget: 1000,
        startDate: '2026-10-01',
        endDate: '2026-10-31',
        lineItems: [item],
      }),
    );
    for (const t of [staging, production]) {
      const r = await run(cfg, t.proxy.url, ['plans', 'apply', plan, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const held = await t.sb.req('GET', '/context/campaign-plans/h25-two', { key: DEMO.full });
      expect(held.status).toBe(200);
      expect((held.body as { lineItems: unknown[] }).lineItems).toHaveLength(1);
    }
  }, 60_000);
});
