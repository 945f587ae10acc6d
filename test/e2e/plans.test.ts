// Plans and waiters (issue 8): from a plan file to what it spawns, with exit
// codes a script can branch on. The built binary against the demo sandbox (in this process)
// (demo world: acc_acme_a_001 is provider_a, USD, connected with write access).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { request } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';

let sandbox: DemoSandbox;
let cfg: string;
let dir: string;
const key = DEMO.full;
const adops = (args: string[], extra: Record<string, string> = {}, onStderr?: (text: string) => void) =>
  runAdopsInProcess(args, {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_API_KEY: key, ADOPS_BASE_URL: sandbox.url, ...extra },
    timeoutMs: 30_000,
    ...(onStderr ? { onStderr } : {}),
  });
const api = async (method: string, path: string, body?: unknown) => request(sandbox.url, method, path, { key, ...(body !== undefined ? { body } : {}) });

const social = SOCIAL_LINE_ITEM;
function planFile(slug: string, lineItems: unknown[], extra: Record<string, unknown> = {}): string {
  const file = join(dir, `${slug}.json`);
  writeFileSync(
    file,
    JSON.stringify({ slug, name: `Plan ${slug}`, currency: 'USD', budget: 10000, startDate: '2026-10-01', endDate: '2026-10-31', ...extra, lineItems }),
  );
  return file;
}

beforeAll(async () => {
  ensureBuilt();
  cfg = tempConfigDir();
  dir = tempDir('adops-plans-');
  sandbox = await startDemoSandbox();
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

describe('a plan from a file, end to end', () => {
  it('apply → validate → readiness (not ready, then --wait while it is approved) → record execution', async () => {
    const applied = await adops(['plans', 'apply', planFile('e2e-spring', [social, { ...social, name: 'Social retargeting', budget: 50 }]), '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toMatch(/created plan e2e-spring \(revision 1\)\nadded line item li_\S+ \(Social\)\nadded line item li_\S+ \(Social retargeting\)/);
    const plan = JSON.parse(applied.stdout) as { status: string; lineItems: Array<{ lineItemId: string; name: string }> };
    expect(plan.status).toBe('draft');
    expect(plan.lineItems.map((li) => li.name)).toEqual(['Social', 'Social retargeting']);
    const li = plan.lineItems[0]!.lineItemId;

    const valid = await adops(['plans', 'line-items', 'validate', 'e2e-spring', li, '--json']);
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({ lineItemId: li, valid: true, problems: [] });

    const notYet = await adops(['plans', 'line-items', 'readiness', 'e2e-spring', li, '--json']);
    expect(notYet.code).toBe(7);
    expect(JSON.parse(notYet.stdout)).toMatchObject({ ready: false, missing: [{ code: 'plan_not_approved' }] });
    expect(notYet.stderr).toContain('plan_not_approved: ');

    // A waiter started before approval returns once the plan is approved: approve only
    // after its first poll said "not approved" (its note on stderr), not after a guessed sleep.
    let seen = false;
    let polledNotReady!: () => void;
    const polled = new Promise<void>((resolve) => (polledNotReady = resolve));
    const waiting = adops(['plans', 'line-items', 'readiness', 'e2e-spring', li, '--wait', '--interval', '0.2', '--timeout', '25', '--json'], {}, (text) => {
      if (!seen && text.includes('missing: plan_not_approved')) {
        seen = true;
        polledNotReady();
      }
    });
    const endedFirst = waiting.then((r) => {
      if (!seen) throw new Error(`the waiter ended before its first poll was seen (exit ${r.code}): ${r.stderr}`);
    });
    await Promise.race([polled, endedFirst]);
    const approved = await adops(['plans', 'approve', 'e2e-spring', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('approving plan e2e-spring at revision 1 as read now (draft, 2 line items, budget 10000 USD)');
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'approved', revision: 2 });
    const ready = await waiting;
    expect(ready.code, ready.stderr).toBe(0);
    expect(ready.stderr).toContain('missing: plan_not_approved');
    expect(JSON.parse(ready.stdout)).toMatchObject({ lineItemId: li, ready: true, missing: [] });

    const recorded = await adops([
      'plans',
      'line-items',
      'record',
      'e2e-spring',
      li,
      '--provider',
      'provider_a',
      '--entity-type',
      'campaign',
      '--entity-id',
      '120330000000001',
      '--json',
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(JSON.parse(recorded.stdout)).toMatchObject({ lineItemId: li, entityType: 'campaign', entityId: '120330000000001' });
    const after = (await api('GET', '/context/campaign-plans/e2e-spring')).body as { lineItems: Array<{ executions: unknown[] }> };
    expect(after.lineItems[0]!.executions).toHaveLength(1);
  }, 60_000);

  it('a plan file without line items applies from stdin too', async () => {
    const r = await runAdopsInProcess(['plans', 'apply', '-', '--json'], {
      stdin: JSON.stringify({ slug: 'e2e-stdin', name: 'From stdin', currency: 'EUR' }),
      env: { ADOPS_CONFIG_DIR: cfg, ADOPS_API_KEY: key, ADOPS_BASE_URL: sandbox.url },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ slug: 'e2e-stdin', currency: 'EUR', lineItems: [] });
  });
});

describe('failures a script can branch on', () => {
  it('validate: exit 7 with the reasons on stderr, the validation on stdout', async () => {
    const applied = await adops(['plans', 'apply', planFile('e2e-bare', [{ name: 'Bare' }]), '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const li = (JSON.parse(applied.stdout) as { lineItems: Array<{ lineItemId: string }> }).lineItems[0]!.lineItemId;
    const r = await adops(['plans', 'line-items', 'validate', 'e2e-bare', li, '--json']);
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: false });
    expect(r.stderr).toContain(`line item ${li} of plan e2e-bare is not valid:`);
    expect(r.stderr).toContain('  missing_field (budget): ');
    expect(r.stderr).toMatch(/"code":"line_item_invalid"/);

    // Approval refuses it too, naming each Line Item's problems.
    const approve = await adops(['plans', 'approve', 'e2e-bare']);
    expect(approve.code).toBe(7);
    expect(approve.stderr).toContain(`line item ${li}:`);
    expect(approve.stderr).toMatch(/plan_invalid \(422\)/);
  });

  it('approve at a stale --revision: exit 5, not approved', async () => {
    expect((await adops(['plans', 'apply', planFile('e2e-stale', [social])])).code).toBe(0);
    expect((await adops(['plans', 'update', 'e2e-stale', '--name', 'Renamed'])).code).toBe(0);
    const r = await adops(['plans', 'approve', 'e2e-stale', '--revision', '1']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('plan e2e-stale changed after revision 1 (now 2)');
    expect((await api('GET', '/context/campaign-plans/e2e-stale')).body).toMatchObject({ status: 'draft' });
  });

  it('readiness --wait: exit 8 when still not ready at the timeout', async () => {
    expect((await adops(['plans', 'apply', planFile('e2e-slow', [social])])).code).toBe(0);
    const li = ((await api('GET', '/context/campaign-plans/e2e-slow')).body as { lineItems: Array<{ lineItemId: string }> }).lineItems[0]!.lineItemId;
    const r = await adops(['plans', 'line-items', 'readiness', 'e2e-slow', li, '--wait', '--timeout', '0.6', '--interval', '0.2']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/still not ready after 0.6 s; check again with `adops plans line-items readiness e2e-slow li_\S+ --wait`/);

    // Archived: it can never be ready, so --wait stops at once with 7.
    expect((await adops(['plans', 'update', 'e2e-slow', '--status', 'archived'])).code).toBe(0);
    const never = await adops(['plans', 'line-items', 'readiness', 'e2e-slow', li, '--wait', '--timeout', '60']);
    expect(never.code).toBe(7);
    expect(never.ms).toBeLessThan(10_000);
    expect(never.stderr).toMatch(/plan_archived/);
    expect(never.stderr).toMatch(/will never be ready/);
  });

  it('apply: a Line Item the service refuses deletes the new plan again (nothing half-done)', async () => {
    const r = await adops(['plans', 'apply', planFile('e2e-refused', [social, { ...social, name: 'Too precise', budget: 10.001 }])]);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('lineItems[1] (Too precise) was refused:');
    expect(r.stderr).toContain('deleted plan e2e-refused again');
    expect(r.stderr).toMatch(/invalid_amount \(422\)/);
    expect((await api('GET', '/context/campaign-plans/e2e-refused')).status).toBe(404);
  });

  it('apply: a file with a wrong field is refused before anything is sent', async () => {
    const bad = await adops(['plans', 'apply', planFile('e2e-typo', [{ ...social, budgte: 5 }]), '--debug']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('lineItems[0].budgte is not a field of a line item');
    expect(bad.stderr).not.toMatch(/→/);
    const wrongType = await adops(['plans', 'apply', planFile('e2e-type', [], { budget: 'lots' })]);
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toContain('budget must be a number');
    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{ nope');
    expect((await adops(['plans', 'apply', notJson])).stderr).toContain('is not valid JSON');
    expect((await api('GET', '/context/campaign-plans/e2e-typo')).status).toBe(404);
  });

  it('apply: every problem of the file at once, by its place in it, as the contract checks the plan and each Line Item (#34)', async () => {
    const bad = await adops(['plans', 'apply', planFile('e2e-many', [social, { budget: 5 }], { currency: 'usd' })]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('currency must match ^[A-Z]{3}$, got "usd"; lineItems[1].name is required');
    expect(bad.stderr).toContain('nothing was sent');
    expect((await api('GET', '/context/campaign-plans/e2e-many')).status).toBe(404);
  });

  it('apply: a plan that exists already is refused (409, exit 5) and nothing is added to it', async () => {
    const file = planFile('e2e-twice', [social]);
    expect((await adops(['plans', 'apply', file])).code).toBe(0);
    const again = await adops(['plans', 'apply', file]);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/slug_conflict/);
    expect(((await api('GET', '/context/campaign-plans/e2e-twice')).body as { lineItems: unknown[] }).lineItems).toHaveLength(1);
  });
});
