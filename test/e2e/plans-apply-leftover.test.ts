// Issue 13 item 15: `plans apply` killed with -9 after it created the plan
// leaves a partial draft; the next run recognises it by its local marker,
// deletes that draft and applies the file anew (exit 0, every Line Item once).
// A plan it cannot prove to be its own is left alone, with the command that
// cleans it. The built binary against the demo sandbox (in this process), through a proxy that
// holds the first Line Item (so the kill lands between plan and items).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { request } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';

let sandbox: DemoSandbox;
let proxy: FaultProxy;
let dir: string;
const key = DEMO.full;
const social = SOCIAL_LINE_ITEM;

function planFile(slug: string): string {
  const file = join(dir, `${slug}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      slug,
      name: `Plan ${slug}`,
      currency: 'USD',
      budget: 10000,
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      lineItems: [social, { ...social, name: 'Retargeting', budget: 50 }],
    }),
  );
  return file;
}

const getPlan = (slug: string) => request(sandbox.url, 'GET', `/context/campaign-plans/${slug}`, { key });

/** `plans apply` through the proxy, killed with SIGKILL once the plan exists on the service. */
async function applyAndKill(cfg: string, file: string, slug: string): Promise<void> {
  proxy.setPlan((req) => (req.url?.includes('/line-items') ? 'stall' : 'pass'));
  const child = spawn(process.execPath, [BIN, 'plans', 'apply', file], {
    cwd: ROOT,
    env: baseEnv({ ADOPS_CONFIG_DIR: cfg, ADOPS_API_KEY: key, ADOPS_BASE_URL: proxy.url }),
    stdio: 'ignore',
  });
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  for (let i = 0; i < 200 && (await getPlan(slug)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
  // The first Line Item is held by the proxy: the run is stuck between the plan and its items.
  while (!proxy.seen.some((s) => s.url.includes('/line-items'))) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await closed;
  proxy.setPlan(() => 'pass');
}

/** The same command again, on the same service address (the marker is kept per service and profile). */
const rerun = (cfg: string, args: string[]) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_API_KEY: key, ADOPS_BASE_URL: proxy.url }, timeoutMs: 30_000 });

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir('adops-leftover-');
  sandbox = await startDemoSandbox();
  proxy = await startFaultProxy(sandbox.url, (req) => (req.url?.includes('/line-items') ? 'stall' : 'pass'));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.stop();
});

describe('plans apply after a kill -9', () => {
  it('the re-run recognises its own partial draft, replaces it and finishes: exit 0, each Line Item once', async () => {
    const cfg = tempConfigDir();
    const file = planFile('killed-1');
    await applyAndKill(cfg, file, 'killed-1');
    expect((await getPlan('killed-1')).body.lineItems).toEqual([]);

    const r = await rerun(cfg, ['plans', 'apply', file, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /plan killed-1 is the draft an interrupted `adops plans apply` left \(pid \d+, started [^)]+\); deleting it to apply this file anew/,
    );
    const plan = (await getPlan('killed-1')).body;
    expect(plan.lineItems.map((li: { name: string }) => li.name)).toEqual(['Social', 'Retargeting']);
    expect(JSON.parse(r.stdout).slug).toBe('killed-1');

    // Done cleanly: a third run meets the plan as an ordinary conflict, and says how to clean it.
    const again = await rerun(cfg, ['plans', 'apply', file]);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/plan killed-1 already exists .*`adops plans delete killed-1 --yes` and apply again/);
    expect((await getPlan('killed-1')).body.lineItems).toHaveLength(2);
  }, 60_000);

  it('a leftover that was approved meanwhile is not touched: exit 5 naming the commands', async () => {
    const cfg = tempConfigDir();
    const file = planFile('killed-2');
    await applyAndKill(cfg, file, 'killed-2');
    // Someone adds a Line Item and approves the draft before the re-run.
    const p = (await getPlan('killed-2')).body;
    expect((await request(sandbox.url, 'POST', '/context/campaign-plans/killed-2/line-items', { key, body: social })).status).toBe(201);
    const approved = await request(sandbox.url, 'POST', '/context/campaign-plans/killed-2/approve', { key, body: { revision: p.revision + 1 } });
    if (approved.status !== 200) {
      const now = (await getPlan('killed-2')).body;
      expect((await request(sandbox.url, 'POST', '/context/campaign-plans/killed-2/approve', { key, body: { revision: now.revision } })).status).toBe(200);
    }

    const r = await rerun(cfg, ['plans', 'apply', file]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/interrupted \(pid \d+\), but this plan cannot be proven to be what it left/);
    expect(r.stderr).toMatch(/adops plans get killed-2/);
    expect((await getPlan('killed-2')).body.status).toBe('approved');
  }, 60_000);
});
