// `adops mutations apply FILE` reading hostile or huge files, through the BUILT
// binary against a real sandbox (behind a proxy that counts every request):
// a broken quote refuses the whole file naming its line, a monster cell is
// refused before it is held, and a dry run's memory does not grow with rows.
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeOptions, PEAK_RSS_ARGS, peakRssKib, renameRows } from '../../bench/lib/peak-rss.js';
import { DEMO, ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { allMutations, campaignsOf, sandboxBehindProxy } from '../helpers/drop-proxy.js';
import { DEMO_WORLD } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const ACC = 'acc_acme_a_001';
const dir = tempDir('adops-apply-input-');
const cfg = tempConfigDir();
const t = sandboxBehindProxy(DEMO_WORLD);
const run = (args: string[], extra: Record<string, string> = {}) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: t.proxy.url, ADOPS_API_KEY: DEMO.full, ...extra }, timeoutMs: 120_000 });
let campaigns: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  campaigns = (await campaignsOf(t.sb, DEMO.full, ACC)).map((c) => c.id);
}, 60_000);

describe('mutations apply reads its file safely', () => {
  it('a header alone (a quiet day in a cron job): exit 0, nothing sent, a note on stderr; a directory is named as one', async () => {
    const file = join(dir, 'quiet.csv');
    writeFileSync(file, 'advertiserId,action,targetType,targetId\n');
    const seen = t.proxy.seen.length;
    for (const extra of [['--dry-run'], [], ['--wait']]) {
      const r = await run(['mutations', 'apply', file, ...extra]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/holds no rows; nothing sent|0 row\(s\) valid; nothing sent/);
    }
    expect(t.proxy.seen.length).toBe(seen);
    const d = await run(['mutations', 'apply', dir]);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain('is a directory, not a file');
  });

  it('an unclosed quote: exit 2 naming the line it opens on, in a dry run and a real one; nothing sent', async () => {
    const file = join(dir, 'unclosed.csv');
    const [a, b, c] = campaigns;
    writeFileSync(
      file,
      [
        'advertiserId,action,targetType,targetId,name',
        `${ACC},rename,campaign,${a},"Spring sale`,
        `${ACC},pause,campaign,${b},`,
        `${ACC},pause,campaign,${c},`,
      ].join('\n') + '\n',
    );
    const before = (await allMutations(t.sb, DEMO.full)).length;
    for (const extra of [['--dry-run'], []]) {
      const r = await run(['mutations', 'apply', file, ...extra]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/unclosed\.csv: line 2: a quoted cell is never closed/);
      expect(r.stdout).toBe('');
    }
    expect(t.proxy.seen).toHaveLength(0);
    expect((await allMutations(t.sb, DEMO.full)).length).toBe(before);
  });

  it('a quote closed too late (a name holding the next rows) is refused, not sent as one rename', async () => {
    const file = join(dir, 'late.csv');
    writeFileSync(
      file,
      ['advertiserId,action,targetType,targetId,name', `${ACC},rename,campaign,${campaigns[0]},"Spring sale`, `${ACC},pause,campaign,${campaigns[1]},"`].join(
        '\n',
      ) + '\n',
    );
    const r = await run(['mutations', 'apply', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/line 2: name holds a line break/);
    expect(t.proxy.seen).toHaveLength(0);
  });

  it('a 120 MB cell: exit 2 naming its line, without holding it (heap capped at 64 MiB)', async () => {
    const file = join(dir, 'huge-cell.csv');
    // Written a MiB at a time: the worker never holds the 120 MB cell (it spawns the next test's child).
    const fd = openSync(file, 'w');
    writeSync(fd, `advertiserId,action,targetType,targetId,name\n${ACC},pause,campaign,${campaigns[0]},\n${ACC},rename,campaign,${campaigns[1]},"`);
    const mib = Buffer.alloc(2 ** 20, 'x');
    for (let i = 0; i < 120; i++) writeSync(fd, mib);
    writeSync(fd, '"\n');
    closeSync(fd);
    const r = await run(['mutations', 'apply', file], { NODE_OPTIONS: '--max-old-space-size=64' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/huge-cell\.csv: line 3: a row longer than \d+ characters/);
    expect(t.proxy.seen).toHaveLength(0);
  });

  it('a 150,000-row dry run: memory does not grow with the rows (runs with the heap capped at 40 MiB; peak RSS < 150 MiB)', async () => {
    const file = join(dir, 'many.csv');
    writeFileSync(file, renameRows(150_000, ACC));
    const r = await run(['mutations', 'apply', file, '--dry-run', '--output', 'csv', '--fields', 'state'], {
      NODE_OPTIONS: nodeOptions(['--max-old-space-size=40', ...PEAK_RSS_ARGS]),
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).toMatch(/dry run: 150000 row\(s\) valid/);
    expect(r.stdout.split('\n').filter((l) => l === 'would send')).toHaveLength(150_000);
    expect(peakRssKib(r.stderr) / 1024).toBeLessThan(150);
    expect(t.proxy.seen).toHaveLength(0);
  }, 180_000);
});
