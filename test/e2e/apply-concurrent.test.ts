// Two `adops mutations apply` of one file started together, sharing one config
// dir and one journal (issue 13 item 1): real processes of the built binary,
// several rounds; every row becomes exactly one mutation, counted on the server.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, runAdops, tempConfigDir } from '../helpers/cli.js';
import { allMutations, campaignsOf, sandboxBehindProxy } from '../helpers/drop-proxy.js';
import { DEMO_WORLD } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const ACC = 'acc_acme_a_001';
const ROUNDS = 5;
const ROWS = 24;
const dir = tempDir('adops-apply-race-');
const cfg = tempConfigDir();
const t = sandboxBehindProxy(DEMO_WORLD);
const run = (args: string[]) => runAdops(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: t.proxy.url, ADOPS_API_KEY: DEMO.full }, timeoutMs: 90_000 });
let campaigns: string[] = [];

const HEADER = 'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount,body';
const renames = (tag: string, n: number) =>
  [HEADER, ...Array.from({ length: n }, (_, i) => `${ACC},rename,campaign,${campaigns[i % campaigns.length]},${tag} ${i},,,,,`)].join('\n') + '\n';

async function perName(tag: string): Promise<number[]> {
  const counts = new Map<string, number>();
  for (const m of await allMutations(t.sb, DEMO.full))
    if (typeof m.changes.name === 'string' && m.changes.name.startsWith(`${tag} `)) counts.set(m.changes.name, (counts.get(m.changes.name) ?? 0) + 1);
  return [...counts.values()];
}

beforeAll(async () => {
  ensureBuilt();
  campaigns = (await campaignsOf(t.sb, DEMO.full, ACC)).map((c) => c.id);
}, 60_000);

describe('two mutations apply of one file at once', () => {
  it(`every row becomes exactly one mutation (${ROUNDS} rounds × 2 processes × ${ROWS} rows)`, async () => {
    const waited: boolean[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const tag = `race-${round}`;
      const file = join(dir, `${tag}.csv`);
      writeFileSync(file, renames(tag, ROWS));
      // Answers held a little: both runs are surely mid-way at the same time.
      t.proxy.rule({ method: 'POST', path: '/mutations', action: 'delay-answer', delayMs: 40 });
      const [a, b] = await Promise.all([run(['mutations', 'apply', file, '--output', 'json']), run(['mutations', 'apply', file, '--output', 'json'])]);
      t.proxy.clearRules();
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const counts = await perName(tag);
      expect(counts).toHaveLength(ROWS);
      expect(
        counts.every((n) => n === 1),
        `round ${round}: ${counts.join(',')}`,
      ).toBe(true);
      // The one that waited read what the other recorded: every row "earlier run", none sent by it.
      const second = [a, b].find((r) => r.stderr.includes('waiting: another run is applying this file'));
      waited.push(!!second);
      if (second) {
        expect(second.stderr).toMatch(new RegExp(`held by pid \\d+ on ${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(adops mutations apply\\)`));
        expect(JSON.parse(second.stdout).every((r: { sent: string }) => r.sent === 'earlier run')).toBe(true);
      }
    }
    expect(waited.some(Boolean)).toBe(true);
  }, 180_000);

  it('a journal with an unreadable line stops the run (exit 2) naming it and the line, a copy kept, nothing sent', async () => {
    const file = join(dir, 'damaged.csv');
    writeFileSync(file, renames('damaged', 2));
    const first = await run(['mutations', 'apply', file]);
    expect(first.code, first.stderr).toBe(0);
    const journal = `${file}.adops-journal.ndjson`;
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines.splice(1, 0, '\u0000garbage{');
    writeFileSync(journal, lines.join('\n'));
    t.proxy.seen.splice(0);
    const r = await run(['mutations', 'apply', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the journal ${journal} could not be read at line 2; a copy of its bytes is at ${journal}.corrupt-`);
    expect(t.proxy.seen.filter((x) => x.method === 'POST')).toHaveLength(0);
    const copy = readdirSync(dir).find((f) => f.startsWith('damaged.csv.adops-journal.ndjson.corrupt-'))!;
    expect(readFileSync(join(dir, copy), 'utf8')).toBe(lines.join('\n'));
    expect(await perName('damaged')).toEqual([1, 1]);
  }, 60_000);

  it('a lock left by a killed run (its pid is gone) is taken over at once', async () => {
    const file = join(dir, 'stale.csv');
    writeFileSync(file, renames('stale', 2));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${file}.adops-journal.ndjson.lock`, JSON.stringify({ pid: Number(dead.stdout), host: hostname(), since: 1, token: 'old' }));
    const r = await run(['mutations', 'apply', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('waiting');
    expect(await perName('stale')).toEqual([1, 1]);
  }, 60_000);
});
