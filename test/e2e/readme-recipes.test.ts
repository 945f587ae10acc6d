// The README's recipes, run as written (extracted from README.md, so the two
// cannot drift) with `adops` on PATH, against a sandbox child.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../unit/uploads/media-samples.js';
import { BIN, DEMO, ensureBuilt, ROOT, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const recipe = (name: string): string => {
  const m = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!m) throw new Error(`README has no recipe ${name}`);
  return m[1]!;
};

let sandbox: SandboxChild;
const cfg = tempConfigDir();
const bin = tempDir('adops-bin-');

/**
 * Run a recipe with bash in its own folder; `adops` is the built binary. `--norc`: bash -c with a socket on stdin
 * (spawnSync's pipes) reads ~/.bashrc as if run by sshd, so the tester's own rc file ran inside every recipe.
 */
function run(name: string, dir: string, extra: Record<string, string> = {}) {
  return spawnSync('bash', ['--norc', '--noprofile', '-c', recipe(name)], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: process.env.HOME ?? '/tmp',
      LANG: 'C.UTF-8',
      ADOPS_CONFIG_DIR: cfg,
      ADOPS_BASE_URL: sandbox.url,
      ADOPS_API_KEY: DEMO.full,
      ...extra,
    },
  });
}
const folder = () => tempDir('adops-recipe-');
/**
 * adops itself (not a recipe: a look at what a recipe did, or a step beside it), against the same sandbox and
 * config, run in this process: only the recipes need processes (bash, with `adops` on PATH). Paths are absolute.
 */
const adops = (...args: string[]) =>
  runAdopsInProcess(args, {
    env: { HOME: process.env.HOME ?? '/tmp', ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full },
    timeoutMs: 60_000,
  });

beforeAll(async () => {
  ensureBuilt();
  writeFileSync(join(bin, 'adops'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'adops'), 0o755);
  sandbox = await startSandboxChild([]);
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

describe('README recipes', () => {
  it('cron: one day of insights to CSV, one row per campaign', () => {
    const dir = folder();
    const r = run('insights-csv', dir, { DAY: '2026-09-29' });
    expect(r.status, r.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'insights-2026-09-29.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^dateStart,dateStop,/);
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines.slice(1)) expect(line).toMatch(/^2026-09-29,2026-09-29,/);
  });

  it('CI: a folder of creatives uploaded and registered; a re-run uploads nothing new', () => {
    const dir = folder();
    mkdirSync(join(dir, 'creatives'));
    writeFileSync(join(dir, 'creatives', 'hero.png'), png(64, 32));
    writeFileSync(join(dir, 'creatives', 'banner.png'), png(728, 90));
    const first = run('ci-upload', dir, { ADVERTISER: 'acc_acme_a_001' });
    expect(first.status, first.stderr).toBe(0);
    const rows = JSON.parse(readFileSync(join(dir, 'uploaded.json'), 'utf8')) as Array<{ result: string; id: string }>;
    expect(rows.map((r) => r.result)).toEqual(['uploaded', 'uploaded']);
    const again = run('ci-upload', dir, { ADVERTISER: 'acc_acme_a_001' });
    expect(again.status, again.stderr).toBe(0);
    const second = JSON.parse(readFileSync(join(dir, 'uploaded.json'), 'utf8')) as Array<{ result: string; id: string }>;
    expect(second.some((r) => r.result === 'uploaded')).toBe(false);
    expect(second.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('plans: verify the demo plan, then its pacing to CSV', () => {
    const dir = folder();
    const v = run('plan-verify', dir, { PLAN: 'acme-autumn-social' });
    expect(v.status, v.stderr).toBe(0);
    expect(readFileSync(join(dir, 'plan-check.csv'), 'utf8').split('\n')[0]).toBe('lineItemId,entityType,entityId,field,planned,live,note');
    // The pause-over-budget recipe may have paused a plan campaign before this one runs: either outcome is a clean exit.
    expect(`${v.stdout}${v.stderr}`).toMatch(/runs as planned|differs from what runs/);
    const p = run('plan-pacing', dir, { PLAN: 'acme-autumn-social', AS_OF: '2026-09-30' });
    expect(p.status, p.stderr).toBe(0);
    expect(readFileSync(join(dir, 'pacing-2026-09-30.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(JSON.parse(p.stdout)).toEqual([{ lineItem: 'li_demo_prospecting', name: 'Prospecting', pace: 31.2 }]);
  });

  it('pacing to a fix: suggest, preview (nothing sent), apply with an undo file, and the undo file puts live back', async () => {
    const dir = folder();
    const r = run('pacing-fix', dir, { PLAN: 'acme-autumn-social', AS_OF: '2026-09-30' });
    expect(r.status, r.stderr).toBe(0);
    const csv = (name: string) =>
      readFileSync(join(dir, name), 'utf8')
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('#'));
    const changes = csv('budgets.csv');
    expect(changes.length).toBeGreaterThan(1);
    const preview = csv('preview.csv');
    expect(preview[0]!.split(',')).toEqual(expect.arrayContaining(['row', 'target', 'field', 'current', 'new', 'effect']));
    expect(preview.slice(1).every((l) => l.includes(',change,') || l.endsWith(',change'))).toBe(true);
    expect(
      csv('applied.csv')
        .slice(1)
        .every((l) => l.includes('succeeded')),
    ).toBe(true);
    const effects = async (): Promise<string[]> => {
      const rows: Array<{ effect: string }> = JSON.parse((await adops('mutations', 'apply', join(dir, 'budgets.csv'), '--preview', '--output', 'json')).stdout);
      return rows.map((p) => p.effect);
    };
    expect((await effects()).every((e) => e === 'no change')).toBe(true);
    // The commented-out last line of the recipe: the undo file is a change file that puts back what the preview saw.
    // Polled every 0.1 s, not the default 2 s: not a recipe (only those run as written), and what is judged is the
    // preview after it; the default interval cost ~2 s of waiting here.
    const back = await adops('mutations', 'apply', join(dir, 'undo.csv'), '--wait', '--interval', '0.1');
    expect(back.code, back.stderr).toBe(0);
    expect((await effects()).every((e) => e === 'change')).toBe(true);
  });

  it('pause every active campaign over a budget, exactly once even when re-run', () => {
    const dir = folder();
    const env = { ADVERTISER: 'acc_acme_a_001', MAX_BUDGET: '2000' };
    const r = run('pause-over-budget', dir, env);
    expect(r.status, r.stderr).toBe(0);
    const planned = readFileSync(join(dir, 'pauses.csv'), 'utf8').trim().split('\n');
    expect(planned[0]).toBe('advertiserId,action,targetType,targetId');
    expect(planned.length).toBeGreaterThan(1);
    const done = readFileSync(join(dir, 'paused.csv'), 'utf8').trim().split('\n');
    expect(done.length).toBe(planned.length);
    for (const line of done.slice(1)) expect(line).toMatch(/succeeded/);
    for (const line of done.slice(1)) expect(line).toMatch(/,this run,/);
    // Run again before ingestion catches up (the stored copy may still say ACTIVE, as the spec
    // allows): the journal knows every row, so nothing is paused twice.
    const again = run('pause-over-budget', dir, env);
    expect(again.status, again.stderr).toBe(0);
    const redone = readFileSync(join(dir, 'paused.csv'), 'utf8').trim().split('\n');
    const ids = (lines: string[]) =>
      lines
        .slice(1)
        .map((l) => l.split(',')[3])
        .sort();
    for (const line of redone.slice(1).filter((l) => done.some((d) => d.split(',')[3] === l.split(',')[3]))) expect(line).toMatch(/,earlier run,/);
    expect(ids(redone).filter((id) => ids(done).includes(id))).toEqual(ids(done));
  });

  it('alert when a paused campaign is still ACTIVE in the stored copy; quiet again after ingestion', async () => {
    const env = { ADVERTISER: 'acc_acme_c_001' };
    const quiet = run('stale-status', folder(), env);
    expect(quiet.status, quiet.stderr).toBe(0);
    const id = JSON.parse(
      (await adops('observe', 'campaigns', '--advertiser', 'acc_acme_c_001', '--status', 'ACTIVE', '--limit', '1', '-o', 'json', '--query', '[0].id')).stdout,
    ) as string;
    // A step beside the recipe, not the recipe: polled every 0.1 s rather than the default 2 s.
    const pause = await adops('mutations', 'pause', 'acc_acme_c_001', '--campaign', id, '--wait', '--interval', '0.1');
    expect(pause.code, pause.stderr).toBe(0);
    const alert = run('stale-status', folder(), env);
    expect(alert.status).toBe(1);
    expect(alert.stderr).toContain(id);
    await fetch(`${sandbox.url}/_sandbox/ingest`, { method: 'POST' });
    const after = run('stale-status', folder(), env);
    expect(after.status, after.stderr).toBe(0);
  }, 120_000);
});
