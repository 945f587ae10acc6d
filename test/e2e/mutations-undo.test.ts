// `adops mutations apply FILE --undo-file UNDO.csv` against the sandbox (providers a to d, each
// in its own keys and money units): random change files applied with an undo file, then the undo
// file applied, leave every field as it was (property test); rows with no way back stop the run
// before anything is sent; --skip-unchanged sends nothing for a row already so; an undo file is
// refused by another service.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutationsWorld } from '../sandbox/mutations/world.js';
import { sandboxBehindProxy } from '../helpers/drop-proxy.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/cli.js';
import { TEST_FULL_KEY } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { virtualClock } from '../helpers/virtual-clock.js';
import { changeFile, snapshot, TARGETS, type Change } from './undo-world.js';

const t = sandboxBehindProxy(mutationsWorld());
const dir = tempDir('adops-undo-');
const cfg = tempConfigDir();
const env = (base = t.proxy.url) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: base, ADOPS_API_KEY: TEST_FULL_KEY });
const run = (args: string[], base?: string) => runAdopsInProcess(args, { env: env(base), timeoutMs: 60_000 });
const WAIT = ['--wait', '--interval', '0.05', '--concurrency', '3'];
let n = 0;

/** One change of a target that allows it, in the provider's own terms (amounts in the advertiser's currency). */
const change: fc.Arbitrary<Change> = fc.constantFrom(...TARGETS).chain((target) =>
  fc.constantFrom(...target.actions).chain((action): fc.Arbitrary<Change> => {
    switch (action) {
      case 'pause':
      case 'activate':
        return fc.constant({ target, action });
      case 'rename':
        return fc.stringMatching(/^[A-Za-z0-9 #,"-]{1,20}$/).map((name) => ({ target, action, name: name.trim() || 'x' }));
      case 'set_budget':
        return fc
          .record({ cents: fc.integer({ min: 100, max: 99_900 }), type: fc.constantFrom(...target.budgetTypes) })
          .map(({ cents, type }) => ({ target, action, amount: cents / 100, budgetType: type }));
      case 'set_bid':
        return fc
          .record({ cents: fc.option(fc.integer({ min: 1, max: 999 }), { nil: undefined }), strategy: fc.constantFrom('COST_CAP', 'LOWEST_COST_WITH_BID_CAP') })
          .map(({ cents, strategy }) =>
            target.type === 'campaign' || cents === undefined
              ? { target, action, bidStrategy: strategy }
              : { target, action, bidStrategy: strategy, bidAmount: cents / 100 },
          );
    }
  }),
);

describe('mutations apply --undo-file', () => {
  it('a random change file applied with --undo-file, then the undo file applied: every field is as before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
        const before = await snapshot(t.sb);
        const file = join(dir, `changes-${n}.csv`);
        const undo = join(dir, `undo-${n++}.csv`);
        writeFileSync(file, changeFile(changes));
        const applied = await run(['mutations', 'apply', file, '--undo-file', undo, ...WAIT]);
        expect(applied.code, applied.stderr).toBe(0);
        expect(readFileSync(undo, 'utf8')).toMatch(/^# adops undo file: service=\S+ key=[0-9a-f]{16} of=[0-9a-f]{16}\n/);
        const undone = await run(['mutations', 'apply', undo, ...WAIT]);
        expect(undone.code, undone.stderr).toBe(0);
        expect(await snapshot(t.sb)).toEqual(before);
      }),
      { numRuns: 4 },
    );
  }, 120_000);

  it('the undo file is written before the first POST, and names the service and key, never the key', async () => {
    const file = join(dir, 'first.csv');
    const undo = join(dir, 'first-undo.csv');
    writeFileSync(file, changeFile([{ target: TARGETS[0]!, action: 'rename', name: 'Before POST' }]));
    // The first POST is dropped before it is sent: the undo file is there all the same. Every send is dropped, so the
    // run resends until it gives up: on a virtual clock that back-off (~3.5 s of real waiting) costs nothing, and it
    // never polls the sandbox.
    t.proxy.rule({ method: 'POST', path: '/mutations', action: 'reset-before' });
    await runAdopsInProcess(['mutations', 'apply', file, '--undo-file', undo, '--concurrency', '1'], {
      env: env(),
      timeoutMs: 60_000,
      clock: virtualClock(Date.now()),
    });
    expect(existsSync(undo)).toBe(true);
    const text = readFileSync(undo, 'utf8');
    expect(text).toContain(`service=${t.proxy.url}`);
    expect(text).not.toContain(TEST_FULL_KEY);
    expect(text).toMatch(/\nacc_a,rename,campaign,100,A campaign,/);
  });

  it('rows with no way back stop the run before anything is sent (exit 2, naming them), unless --allow-irreversible', async () => {
    const file = join(dir, 'irreversible.csv');
    const undo = join(dir, 'irreversible-undo.csv');
    writeFileSync(
      file,
      'advertiserId,action,targetType,targetId,name\nacc_a,rename,campaign,100,Fine\nacc_c,archive,campaign,400,\nacc_nc,pause,campaign,1,\nacc_b,pause,campaign,no-such,\n',
    );
    const r = await run(['mutations', 'apply', file, '--undo-file', undo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/3 row\(s\) cannot be undone/);
    expect(r.stderr).toMatch(/line 3: campaign 400: an archive cannot be undone/);
    expect(r.stderr).toMatch(/line 4: campaign 1: .*provider_not_connected/);
    expect(r.stderr).toMatch(/line 5: campaign no-such/);
    expect(t.proxy.seen.filter((s) => s.method === 'POST')).toEqual([]);
    expect(existsSync(undo)).toBe(false);
  });

  it('--skip-unchanged sends nothing for a row already so (reported unchanged) and leaves it out of the undo file', async () => {
    const before = await snapshot(t.sb);
    const a100 = before.find((r) => r.id === '100')!;
    const file = join(dir, 'skip.csv');
    const undo = join(dir, 'skip-undo.csv');
    writeFileSync(file, `advertiserId,action,targetType,targetId,name\nacc_a,rename,campaign,100,${String(a100.name)}\nacc_c,rename,campaign,400,Skip C\n`);
    const r = await run(['mutations', 'apply', file, '--undo-file', undo, '--skip-unchanged', ...WAIT, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows: Array<{ row: number; state: string; sent: string }> = JSON.parse(r.stdout);
    expect(rows.map((x) => [x.row, x.state, x.sent])).toEqual([
      [2, 'unchanged', 'no'],
      [3, 'succeeded', 'this run'],
    ]);
    expect(t.proxy.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
    const undoRows = readFileSync(undo, 'utf8').trim().split('\n').slice(2);
    expect(undoRows).toEqual([expect.stringMatching(/^acc_c,rename,campaign,400,C campaign,/)]);
    const back = await run(['mutations', 'apply', undo, ...WAIT]);
    expect(back.code, back.stderr).toBe(0);
    expect(await snapshot(t.sb)).toEqual(before);
  });

  it('an undo file applied to another service is refused (exit 2) naming the one it was made for; --force applies it', async () => {
    const file = join(dir, 'scope.csv');
    const undo = join(dir, 'scope-undo.csv');
    writeFileSync(file, changeFile([{ target: TARGETS[0]!, action: 'rename', name: 'Scoped' }]));
    const applied = await run(['mutations', 'apply', file, '--undo-file', undo, ...WAIT]);
    expect(applied.code, applied.stderr).toBe(0);
    // The sandbox itself, not the proxy: another base URL, so another service.
    const refused = await run(['mutations', 'apply', undo, ...WAIT], t.sb.url);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`made for ${t.proxy.url}`);
    expect(refused.stderr).not.toContain(TEST_FULL_KEY);
    const forced = await run(['mutations', 'apply', undo, '--force', ...WAIT], t.sb.url);
    expect(forced.code, forced.stderr).toBe(0);
  });

  it('never overwrites an undo file of anything else, nor goes on without one after rows were sent (exit 2, nothing sent)', async () => {
    const file = join(dir, 'guard.csv');
    const undo = join(dir, 'guard-undo.csv');
    writeFileSync(file, changeFile([{ target: TARGETS[6]!, action: 'rename', name: 'Guarded' }]));
    writeFileSync(undo, 'the only way back from another run\n');
    const other = await run(['mutations', 'apply', file, '--undo-file', undo]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/already exists and is not the undo file of this change file/);
    expect(readFileSync(undo, 'utf8')).toBe('the only way back from another run\n');
    expect(t.proxy.seen.filter((s) => s.method === 'POST')).toEqual([]);

    // Sent once without an undo file: its previous values can no longer be read live.
    const sent = await run(['mutations', 'apply', file, ...WAIT]);
    expect(sent.code, sent.stderr).toBe(0);
    const late = await run(['mutations', 'apply', file, '--undo-file', join(dir, 'late-undo.csv')]);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/the journal records rows sent by an earlier run, but the undo file .* is not there/);
    expect(existsSync(join(dir, 'late-undo.csv'))).toBe(false);
  });
});
