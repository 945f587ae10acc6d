// What the command tree adds around Observe, through the built binary on a
// sandbox: the design card's `observe campaigns --live` form, the stored read
// named (or run) when a live read is refused, insights' empty-range note and
// chart, --query, unknown-field warnings, and the machine-readable tree.
import { describe, expect, it } from 'vitest';
import { DEMO, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { useDemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

const cfg = tempConfigDir();
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full });
const run = (args: string[]) => runAdopsInProcess(args, { env: env() });
const A = 'acc_acme_a_001';

const sandbox = useDemoSandbox();

describe('observe', () => {
  it('`observe campaigns --live ACC` still lists (the group runs its default verb)', async () => {
    const r = await run(['observe', 'campaigns', '--live', A, '--limit', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ advertiserId: string; createdAt: unknown }>;
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ advertiserId: A, createdAt: null });
  });

  it('a live read the provider cannot answer (501) names the stored read; --fallback-stored runs it', async () => {
    const refused = await run(['observe', 'campaigns', '--live', A, '--status', 'ACTIVE']);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain(`adops observe campaigns list --advertiser ${A} --status ACTIVE`);
    const fell = await run(['observe', 'campaigns', '--live', A, '--status', 'ACTIVE', '--fallback-stored', '--json']);
    expect(fell.code, fell.stderr).toBe(0);
    expect(fell.stderr).toMatch(/reading the stored copy instead/);
    const rows = JSON.parse(fell.stdout) as Array<{ advertiserId: string; status: string; createdAt: unknown }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatchObject({ advertiserId: A, status: 'ACTIVE' });
      expect(row.createdAt).not.toBeNull(); // stored rows carry service times
    }
    const alone = await run(['observe', 'campaigns', '--fallback-stored']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--fallback-stored goes with --live/);
  });

  it('insights over a range with no data: an empty result, and the range the store holds on stderr', async () => {
    const r = await run(['observe', 'insights', '--since', '2026-11-01', '--until', '2026-11-20', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toMatch(/no insights from 2026-11-01 to 2026-11-20; the store holds \d{4}-\d{2}-\d{2} to 2026-09-30/);
  });

  it('insights --chart draws under the table on a terminal, and says why it does not in a pipe', async () => {
    const tty = await runAdopsTty(
      ['observe', 'insights', '--since', '2026-09-01', '--until', '2026-09-30', '--grain', 'week', '--advertiser', A, '--chart', 'spend'],
      { env: { ...env(), NO_COLOR: '1' } },
    );
    expect(tty.code, tty.stdout).toBe(0);
    expect(tty.stdout).toMatch(/spend in [A-Z]{3} by 5 periods/);
    expect(tty.stdout).toMatch(/┤/);
    const piped = await run(['observe', 'insights', '--since', '2026-09-01', '--until', '2026-09-30', '--chart', 'spend', '-o', 'csv']);
    expect(piped.code).toBe(0);
    expect(piped.stdout.split('\n')[0]).toMatch(/^dateStart,dateStop,/);
    expect(piped.stderr).toMatch(/--chart draws under a table on a terminal; not drawn/);
    const bad = await run(['observe', 'insights', '--since', '2026-09-01', '--until', '2026-09-30', '--chart', 'ctr']);
    expect(bad.code).toBe(2);
  });

  it('--query (JMESPath) shapes the result for scripts without jq; a bad expression is a usage error', async () => {
    const r = await run(['observe', 'campaigns', '--advertiser', A, '--limit', '3', '--query', '[].id']);
    expect(r.code, r.stderr).toBe(0);
    const ids = JSON.parse(r.stdout) as string[];
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(typeof id).toBe('string');
    const bad = await run(['observe', 'campaigns', '--query', '[?']);
    expect(bad.code).toBe(2);
  });

  it('a field the operation does not know is sent with a warning that names the known ones', async () => {
    const r = await run(['observe', 'insights', '--since', '2026-09-01', '--until', '2026-09-03', '-f', 'timegrain=week', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /"timegrain" is not a query parameter of listInsights \(did you mean "timeGrain"\?\); sending it anyway\. Known: since, until, level, timeGrain/,
    );
    const api = await run(['api', 'GET', '/observe/insights', '-f', 'since=2026-09-01', '-f', 'until=2026-09-03', '-f', 'advertiserID=acc_x']);
    expect(api.code).toBe(0);
    expect(api.stderr).toMatch(/"advertiserID" is not a query parameter of listInsights \(did you mean "advertiserId"\?\)/);
    const body = await run(['api', 'POST', '/context/skills', '-f', 'slug=warned', '-f', 'name=W', '-f', 'tittle=x']);
    expect(body.stderr).toMatch(/"tittle" is not a body field of createSkill/);
  });

  it('`adops commands --json` names every leaf operation as "METHOD /path"', async () => {
    const r = await run(['commands', '--json']);
    expect(r.code).toBe(0);
    const tree = JSON.parse(r.stdout) as { commands: Array<{ path: string[]; operationId?: string; operation?: string }> };
    const get = tree.commands.find((c) => c.path.join(' ') === 'brands personas get');
    expect(get).toMatchObject({ operationId: 'getPersona', operation: 'GET /context/brands/{slug}/personas/{personaSlug}' });
  });
});
