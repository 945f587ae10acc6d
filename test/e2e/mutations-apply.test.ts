// `adops mutations apply FILE` through the BUILT binary: invalid rows refused
// before anything is sent, --dry-run sends nothing, and a run killed or
// interrupted mid-way then re-run makes every row exactly once (counted on the
// server with GET /mutations and the full key).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { allMutations, campaignsOf, sandboxBehindProxy, type DropProxy } from '../helpers/drop-proxy.js';
import { DEMO_WORLD, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { READ_ONCE_BYTES } from '../../src/commands/mutations/apply.js';

const ACC = 'acc_acme_a_001';
let sb: TestSandbox;
let proxy: DropProxy;
let campaigns: string[] = [];
const dir = tempDir('adops-apply-');
const cfg = tempConfigDir();
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: proxy.url, ADOPS_API_KEY: DEMO.full });
const run = (args: string[]) => runAdopsInProcess(args, { env: env(), timeoutMs: 60_000 });

const t = sandboxBehindProxy(DEMO_WORLD);

beforeAll(async () => {
  ensureBuilt();
  ({ sb, proxy } = t);
  campaigns = (await campaignsOf(sb, DEMO.full, ACC)).map((c) => c.id);
}, 60_000);

const HEADER = 'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount,body';
function renames(tag: string, n: number): string {
  const lines = [HEADER];
  for (let i = 0; i < n; i++) lines.push(`${ACC},rename,campaign,${campaigns[i]},${tag} ${i},,,,,`);
  return lines.join('\n') + '\n';
}
const namedCount = async (tag: string) => {
  const counts = new Map<string, number>();
  for (const m of await allMutations(sb, DEMO.full))
    if (typeof m.changes.name === 'string' && m.changes.name.startsWith(`${tag} `)) counts.set(m.changes.name, (counts.get(m.changes.name) ?? 0) + 1);
  return counts;
};

describe('mutations apply', () => {
  it('refuses invalid rows before sending anything, naming each line (exit 2)', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(
      file,
      [
        HEADER,
        `${ACC},pause,campaign,${campaigns[0]},,,,,,`,
        `${ACC},explode,campaign,1,,,,,,`,
        `${ACC},set_budget,campaign,1,,,,,,`,
        `${ACC},set_budget,campaign,1,,abc,,,,`,
        `${ACC},set_bid,ad_group,1,,,,,,`,
      ].join('\n'),
    );
    const r = await run(['mutations', 'apply', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/4 of 5 row\(s\)/);
    expect(r.stderr).toMatch(/line 3: action must be one of/);
    expect(r.stderr).toMatch(/line 4: budget.amount is required/);
    expect(r.stderr).toMatch(/line 5: amount "abc" is not a number/);
    expect(r.stderr).toMatch(/line 6: set_bid needs bidStrategy or bidAmount/);
    expect(proxy.seen).toHaveLength(0);
    expect(existsSync(`${file}.adops-journal.ndjson`)).toBe(false);
  });

  it('--dry-run validates every row (CSV and NDJSON) and sends nothing', async () => {
    const csv = join(dir, 'plan.csv');
    writeFileSync(csv, renames('dry', 3));
    const nd = join(dir, 'plan.ndjson');
    writeFileSync(nd, `{"advertiserId":"${ACC}","action":"set_budget","target":{"type":"campaign","id":"${campaigns[0]}"},"budget":{"amount":12}}\n`);
    for (const file of [csv, nd]) {
      const r = await run(['mutations', 'apply', file, '--dry-run', '--output', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).every((row: { state: string }) => row.state === 'would send')).toBe(true);
    }
    expect(proxy.seen).toHaveLength(0);
  });

  it('a change that failed: exit 9; a re-run does not resend it; --retry-failed sends it again as a new change', async () => {
    const file = join(dir, 'failing.csv');
    writeFileSync(file, `${HEADER}\n${ACC},pause,campaign,no-such-campaign-apply,,,,,,\n`);
    const first = await run(['mutations', 'apply', file, '--wait', '--interval', '0.1', '--output', 'json']);
    expect(first.code, first.stderr).toBe(9);
    expect(JSON.parse(first.stdout)[0]).toMatchObject({ row: 2, state: 'failed', error: expect.stringMatching(/^not_found/) });
    expect(first.stderr).toMatch(/--retry-failed/);
    proxy.seen.splice(0);
    expect((await run(['mutations', 'apply', file])).code).toBe(9);
    expect(proxy.seen.filter((x) => x.method === 'POST')).toHaveLength(0);
    const retried = await run(['mutations', 'apply', file, '--retry-failed', '--wait', '--interval', '0.1']);
    expect(retried.code).toBe(9);
    const made = (await allMutations(sb, DEMO.full)).filter((m) => m.target.id === 'no-such-campaign-apply');
    expect(made).toHaveLength(2);
  });

  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    it(`a run stopped by ${signal} mid-way and run again makes every row exactly once`, async () => {
      const tag = `apply-${signal}`;
      const file = join(dir, `${tag}.csv`);
      writeFileSync(file, renames(tag, 10));
      // Answers held back: when the process stops, some changes are made but unanswered (in doubt).
      proxy.rule({ method: 'POST', path: '/mutations', action: 'delay-answer', delayMs: 600 });
      const child = spawn(process.execPath, [BIN, 'mutations', 'apply', file, '--concurrency', '2'], {
        cwd: ROOT,
        env: baseEnv(env()),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
      for (let i = 0; i < 200 && proxy.seen.filter((s) => s.method === 'POST').length < 5; i++) await new Promise((r) => setTimeout(r, 50));
      child.kill(signal);
      const code = await exited;
      if (signal === 'SIGINT') {
        expect(code).toBe(130);
        expect(stderr).toMatch(/Run the same command again to resume/);
      }
      const before = await namedCount(tag);
      expect(before.size).toBeGreaterThan(0);
      expect(before.size).toBeLessThan(10);
      expect(readFileSync(`${file}.adops-journal.ndjson`, 'utf8')).toMatch(/idempotencyKey/);

      proxy.clearRules();
      const again = await run(['mutations', 'apply', file, '--wait', '--interval', '0.1', '--output', 'json']);
      expect(again.code, again.stderr).toBe(0);
      // Rows whose answer never came are sent again with the key recorded before their first send.
      expect(again.stderr).toMatch(/in doubt from an earlier run; sending again with its Idempotency-Key/);
      const rows = JSON.parse(again.stdout) as Array<{ state: string; sent: string }>;
      expect(rows).toHaveLength(10);
      expect(rows.every((r) => r.state === 'succeeded')).toBe(true);
      expect(rows.some((r) => r.sent === 'earlier run')).toBe(true);
      const after = await namedCount(tag);
      expect(after.size).toBe(10);
      expect([...after.values()].every((n) => n === 1)).toBe(true);
    }, 60_000);
  }
});

// A file up to READ_ONCE_BYTES is read once and its checked rows held (#37 session 12); a larger one is read a
// second time as it is sent, so memory stays flat. Each run below is held at the journal's lock (a live holder's
// lock file) once its check is done, the file is rewritten, then the lock is freed: what is sent shows which it did.
describe('mutations apply: a small file is sent as it was checked, a large one is read again', () => {
  const ROW_BYTES = 1_000;
  /** NDJSON of `n` renames, each line ROW_BYTES long (blanks inside the JSON), named `${word}-000`, … */
  const padded = (word: string, action: string, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const json = JSON.stringify({
        advertiserId: ACC,
        target: { type: 'campaign', id: campaigns[i % campaigns.length] },
        action,
        name: `${word}-${String(i).padStart(3, '0')}`,
      });
      return `${json.slice(0, -1)}${' '.repeat(ROW_BYTES - json.length - 1)}}\n`;
    }).join('');
  /** Runs apply on `file`; between its check (the journal made) and its first send, writes `rewrite` over the file. */
  async function rewrittenAfterCheck(file: string, rewrite: string) {
    const journal = `${file}.adops-journal.ndjson`;
    // A live run's lock (this process, another token): the run waits for it after its check.
    writeFileSync(`${journal}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now(), token: 'test-holds-it' }));
    const running = run(['mutations', 'apply', file, '--output', 'ndjson']);
    for (let i = 0; i < 500 && !existsSync(journal); i++) await new Promise((r) => setTimeout(r, 10));
    expect(existsSync(journal)).toBe(true);
    writeFileSync(file, rewrite);
    rmSync(`${journal}.lock`);
    const r = await running;
    const names = proxy.seen.filter((s) => s.method === 'POST' && s.path === '/mutations').map((s) => (JSON.parse(s.body) as { name: string }).name);
    return { ...r, names };
  }

  it('a file up to READ_ONCE_BYTES: the rows sent are the rows checked, though the file changed before the first send', async () => {
    const file = join(dir, 'read-once.ndjson');
    writeFileSync(file, padded('before', 'rename', 10));
    expect(statSync(file).size).toBeLessThanOrEqual(READ_ONCE_BYTES);
    const r = await rewrittenAfterCheck(file, padded('afterr', 'renamx', 10));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/waiting: another run is applying this file/);
    expect(r.names.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `before-${String(i).padStart(3, '0')}`));
  });

  it('a file past READ_ONCE_BYTES is read again as it is sent: a row changed to a bad one stops the run (exit 2)', async () => {
    const file = join(dir, 'read-twice.ndjson');
    const rows = 150;
    writeFileSync(file, padded('large', 'rename', rows));
    expect(statSync(file).size).toBeGreaterThan(READ_ONCE_BYTES);
    const r = await rewrittenAfterCheck(file, padded('large', 'renamx', rows));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/changed while it was read \(line 1: action must be one of/);
    expect(r.names).toEqual([]);
  });

  // A dry run numbers repeated rows as the real run did, whether it holds the file or reads it twice: each of two
  // identical rows is its own change, found in the journal under its own identity.
  for (const [size, rows] of [
    ['up to READ_ONCE_BYTES', 10],
    ['past READ_ONCE_BYTES', 150],
  ] as const) {
    it(`a dry run after a run of a file ${size} with a repeated row: every row is the earlier run's own change`, async () => {
      const file = join(dir, `repeats-${rows}.ndjson`);
      const lines = padded(`repeat${rows}`, 'rename', rows).split('\n');
      // The last row is the first again: the same body twice.
      writeFileSync(file, [...lines.slice(0, rows - 1), lines[0], ''].join('\n'));
      expect(statSync(file).size > READ_ONCE_BYTES).toBe(rows > 10);
      const sent = await run(['mutations', 'apply', file, '--output', 'ndjson']);
      expect(sent.code, sent.stderr).toBe(0);
      const made = sent.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { row: number; mutationId: string });
      const planned = await run(['mutations', 'apply', file, '--dry-run', '--output', 'ndjson']);
      expect(planned.code, planned.stderr).toBe(0);
      const plan = planned.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { row: number; mutationId: string; sent: string });
      expect(plan.map((p) => p.sent)).toEqual(made.map(() => 'earlier run'));
      expect(plan.map((p) => p.mutationId)).toEqual(made.map((m) => m.mutationId));
      expect(new Set(plan.map((p) => p.mutationId)).size).toBe(rows);
    });
  }
});
