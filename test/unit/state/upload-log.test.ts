// The upload journal's per-run write-ahead log (#37): records appended to the
// run's own log, read by every other run before the store's files, and folded
// into those files at the run's end or, for a run that died, by the next one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UploadJournal, type JournalEntry } from '../../../src/state/upload-journal.js';
import { LOG_SUFFIX, RUNS_DIR } from '../../../src/state/upload-log.js';
import { contentsOf, STORE_FILE } from '../../../src/state/upload-store.js';
import { tempDir } from '../../helpers/temp.js';
import { journalView } from '../../helpers/upload-journal-view.js';

const SHA = 'ab'.repeat(32);
const SCOPE = { baseUrl: 'http://s', keyFp: 'k1' };
const entry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  id: 'ast_1',
  keyFp: 'k1',
  state: 'reserved',
  uploadUrl: 'http://st/u/t',
  updatedAt: 1,
  ...over,
});

const logsOf = (dir: string) => {
  try {
    return readdirSync(join(dir, 'uploads', RUNS_DIR)).filter((n) => n.endsWith(LOG_SUFFIX));
  } catch {
    return [];
  }
};
/** The store's content files (not the logs), relative to uploads/. */
const storeFiles = (dir: string) =>
  readdirSync(join(dir, 'uploads'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json') && statSync(join(dir, 'uploads', f)).isFile());

/** A pid that is certainly gone: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

/** Leaves `name` as a run that died would: its log (these lines, as written) and its lock naming a dead pid. */
function deadRun(dir: string, name: string, text: string): void {
  const runs = join(dir, 'uploads', RUNS_DIR);
  mkdirSync(runs, { recursive: true });
  writeFileSync(join(runs, name), text);
  writeFileSync(join(runs, `${name}.lock`), JSON.stringify({ pid: deadPid(), host: hostname(), since: Date.now(), token: 'dead' }) + '\n');
}

/** A run's record as its log holds it (the content file's name relative to uploads/). */
async function recordLine(over: Partial<JournalEntry>, gen?: number): Promise<{ line: string; file: string }> {
  // Written by a real run of the journal, then its log taken as the line to plant.
  const scratch = tempDir('adops-log-scratch-');
  const j = new UploadJournal(scratch, SCOPE);
  const slot = await j.open('asset', 10, SHA);
  for (let g = 1; g < (gen ?? 1); g++) await slot.put(entry({ ...over, updatedAt: g }));
  await slot.put(entry(over));
  slot.release();
  const log = readFileSync(join(scratch, 'uploads', RUNS_DIR, logsOf(scratch)[0]!), 'utf8')
    .trim()
    .split('\n')
    .pop()!;
  await j.close();
  const file: string = JSON.parse(log).file;
  return { line: log, file };
}

describe('a run writes its own log; the store files come at its end', () => {
  it('each put is a record of the run log, on disk when it resolves; no store file until the fold, then no log', async () => {
    const dir = tempDir('adops-log-');
    const j = new UploadJournal(dir, SCOPE);
    const slot = await j.open('asset', 10, SHA);
    await slot.put(entry());
    await slot.put(entry({ state: 'sent', sentSha256: SHA }));
    slot.release();
    expect(storeFiles(dir)).toEqual([]); // no temp file, no rename, no store write per step
    const [log] = logsOf(dir);
    const lines = readFileSync(join(dir, 'uploads', RUNS_DIR, log!), 'utf8').split('\n');
    expect(lines.at(-1)).toBe(''); // whole lines only
    expect(lines.slice(0, -1).map((l) => [JSON.parse(l).gen, JSON.parse(l).content.entries[0].state])).toEqual([
      [1, 'reserved'],
      [2, 'sent'],
    ]);
    await j.close();
    expect(logsOf(dir)).toEqual([]);
    expect(storeFiles(dir)).toHaveLength(1); // the scope's store file: one durable write for the run
    const [stored] = contentsOf(readFileSync(join(dir, 'uploads', storeFiles(dir)[0]!), 'utf8'))!.values();
    expect(stored).toMatchObject({ gen: 2, entries: [{ state: 'sent' }] });
    expect(new UploadJournal(dir, SCOPE).peek('asset', 10, SHA).map((e) => e.state)).toEqual(['sent']);
  });

  it('two runs sharing one config dir each write their own log, and each reads what the other recorded', async () => {
    const dir = tempDir('adops-log-');
    const a = new UploadJournal(dir, SCOPE);
    const b = new UploadJournal(dir, SCOPE);
    const sa = await a.open('asset', 10, SHA);
    await sa.put(entry({ id: 'ast_a' }));
    const other = await b.open('asset', 11, SHA);
    await other.put(entry({ id: 'ast_b' }));
    other.release();
    expect(logsOf(dir)).toHaveLength(2);
    // b waits for a's lock of this content, then reads a's record from a's live log (nothing folded yet).
    const waiting = b.open('asset', 10, SHA);
    await sa.put(entry({ id: 'ast_a', state: 'ready' }));
    sa.release();
    const sb = await waiting;
    expect(sb.entries.map((e) => [e.id, e.state])).toEqual([['ast_a', 'ready']]);
    await sb.put(entry({ id: 'ast_b2' }));
    sb.release();
    expect(a.peek('asset', 10, SHA).map((e) => e.id)).toEqual(['ast_a', 'ast_b2']); // a reads b's newer record
    await a.close(); // a's gen 2 folded while b's gen 3 is still only in b's log
    expect(new UploadJournal(dir, SCOPE).peek('asset', 10, SHA).map((e) => e.id)).toEqual(['ast_a', 'ast_b2']);
    await b.close();
    expect(logsOf(dir)).toEqual([]);
    expect(new UploadJournal(dir, SCOPE).peek('asset', 10, SHA).map((e) => e.id)).toEqual(['ast_a', 'ast_b2']);
    expect(new UploadJournal(dir, SCOPE).peek('asset', 11, SHA).map((e) => e.id)).toEqual(['ast_b']);
  });
});

describe("a dead run's log", () => {
  it('is read by the next run at once, folded at its start: nothing lost, nothing doubled, the log gone', async () => {
    const dir = tempDir('adops-log-');
    const { line } = await recordLine({ id: 'ast_dead', state: 'sent', sentSha256: SHA });
    deadRun(dir, `1-dead${LOG_SUFFIX}`, line + '\n');
    const next = new UploadJournal(dir, SCOPE);
    expect(next.peek('asset', 10, SHA).map((e) => [e.id, e.state])).toEqual([['ast_dead', 'sent']]); // before any fold
    expect(await next.foldDead()).toBe(1);
    expect(logsOf(dir)).toEqual([]);
    expect(readdirSync(join(dir, 'uploads', RUNS_DIR))).toEqual([]); // its lock freed too
    expect([...journalView(join(dir, 'uploads')).values()].map((c) => c.entries.map((e) => e.id))).toEqual([['ast_dead']]);
    const slot = await next.open('asset', 10, SHA);
    expect(slot.entries.map((e) => e.id)).toEqual(['ast_dead']); // once
    slot.release();
  });

  it('a lock left by a run that died before its first record is swept; a live one stays', async () => {
    const dir = tempDir('adops-log-');
    const live = new UploadJournal(dir, SCOPE);
    const slot = await live.open('asset', 10, SHA);
    await slot.put(entry());
    slot.release();
    const runs = join(dir, 'uploads', RUNS_DIR);
    writeFileSync(join(runs, `2-orphan${LOG_SUFFIX}.lock`), JSON.stringify({ pid: deadPid(), host: hostname(), since: Date.now(), token: 'dead' }) + '\n');
    await new UploadJournal(dir, SCOPE).foldDead();
    expect(readdirSync(runs).sort()).toEqual([logsOf(dir)[0], `${logsOf(dir)[0]}.lock`].sort());
    await live.close();
  });

  it("a live run's log is left alone (its lock is held)", async () => {
    const dir = tempDir('adops-log-');
    const live = new UploadJournal(dir, SCOPE);
    const slot = await live.open('asset', 10, SHA);
    await slot.put(entry());
    slot.release();
    expect(await new UploadJournal(dir, SCOPE).foldDead()).toBe(0);
    expect(logsOf(dir)).toHaveLength(1);
    await live.close();
  });

  it('a torn last record (a kill mid-write) is ignored on fold: the record before it wins', async () => {
    const dir = tempDir('adops-log-');
    const { line: first } = await recordLine({ id: 'ast_1', state: 'reserved' }, 1);
    const { line: second } = await recordLine({ id: 'ast_1', state: 'sent', sentSha256: SHA }, 2);
    deadRun(dir, `1-torn${LOG_SUFFIX}`, first + '\n' + second.slice(0, second.length - 20));
    const next = new UploadJournal(dir, SCOPE);
    expect(next.peek('asset', 10, SHA).map((e) => e.state)).toEqual(['reserved']);
    expect(await next.foldDead()).toBe(1);
    const [content] = [...journalView(join(dir, 'uploads')).values()];
    expect(content).toMatchObject({ gen: 1, entries: [{ id: 'ast_1', state: 'reserved' }] });
    expect(logsOf(dir)).toEqual([]);
  });

  it('an older record than the store holds changes nothing (the highest gen wins)', async () => {
    const dir = tempDir('adops-log-');
    const j = new UploadJournal(dir, SCOPE);
    const slot = await j.open('asset', 10, SHA);
    for (const state of ['reserved', 'sent', 'ready'] as const) await slot.put(entry({ state }));
    slot.release();
    await j.close(); // the store holds gen 3: ready
    const { line } = await recordLine({ state: 'reserved' }, 1);
    deadRun(dir, `1-old${LOG_SUFFIX}`, line + '\n');
    const next = new UploadJournal(dir, SCOPE);
    expect(next.peek('asset', 10, SHA).map((e) => e.state)).toEqual(['ready']);
    await next.foldDead();
    expect(new UploadJournal(dir, SCOPE).peek('asset', 10, SHA).map((e) => e.state)).toEqual(['ready']);
    expect(existsSync(join(dir, 'uploads', RUNS_DIR, `1-old${LOG_SUFFIX}`))).toBe(false);
  });

  it('an emptied content is a tombstone while another log still names it, so that older record is not read again', async () => {
    const dir = tempDir('adops-log-');
    const older = new UploadJournal(dir, SCOPE);
    const s1 = await older.open('asset', 10, SHA);
    await s1.put(entry({ id: 'ast_gone' }));
    s1.release(); // `older` stays alive: its log keeps gen 1
    const j = new UploadJournal(dir, SCOPE);
    const s2 = await j.open('asset', 10, SHA);
    await s2.remove('ast_gone'); // gen 2, no entries
    s2.release();
    await j.close();
    expect(new UploadJournal(dir, SCOPE).peek('asset', 10, SHA)).toEqual([]);
    await older.close(); // gen 1 < the tombstone's 2: not written back
    expect(new UploadJournal(dir, SCOPE).peek('asset', 10, SHA)).toEqual([]);
  });
});

describe('the store: one file per scope, written once per fold (#37 session 3)', () => {
  it("a run's contents of one scope fold into ONE store file, each read back as it was", async () => {
    const dir = tempDir('adops-log-');
    const j = new UploadJournal(dir, SCOPE);
    for (let size = 1; size <= 20; size++) {
      const slot = await j.open('asset', size, SHA);
      await slot.put(entry({ id: `ast_${size}`, state: 'ready', sentSha256: SHA }));
      slot.release();
    }
    await j.close();
    expect(storeFiles(dir)).toHaveLength(1); // not one file per content
    const next = new UploadJournal(dir, SCOPE);
    for (let size = 1; size <= 20; size++) expect(next.peek('asset', size, SHA).map((e) => e.id)).toEqual([`ast_${size}`]);
  });

  it("an older adops's own content file is still read; a newer record wins over it, and emptying it leaves a tombstone", async () => {
    const dir = tempDir('adops-log-');
    const j = new UploadJournal(dir, SCOPE);
    const slot = await j.open('asset', 10, SHA);
    await slot.put(entry({ id: 'ast_old', state: 'ready', sentSha256: SHA }));
    slot.release();
    const { file } = JSON.parse(readFileSync(join(dir, 'uploads', RUNS_DIR, logsOf(dir)[0]!), 'utf8').trim());
    await j.close();
    // As an adops before the store files left it: the content alone in its own file (gen 5), no store file.
    const scope = join(dir, 'uploads', String(file).split('/')[0]!);
    for (const f of readdirSync(scope)) rmSync(join(scope, f));
    writeFileSync(
      join(dir, 'uploads', file),
      JSON.stringify({ v: 2, target: 'asset', size: 10, sha256: SHA, gen: 5, entries: [entry({ id: 'ast_old', state: 'ready' })] }),
    );
    const upgraded = new UploadJournal(dir, SCOPE);
    expect(upgraded.peek('asset', 10, SHA).map((e) => e.id)).toEqual(['ast_old']); // not forgotten: never sent twice
    const s2 = await upgraded.open('asset', 10, SHA);
    await s2.remove('ast_old'); // gen 6, nothing left
    s2.release();
    await upgraded.close();
    expect(new UploadJournal(dir, SCOPE).peek('asset', 10, SHA)).toEqual([]); // the old file's gen 5 is not read again
  });

  it('two services sharing one config dir: the same bytes recorded to each are neither merged nor lost, live or folded', async () => {
    const dir = tempDir('adops-log-');
    const staging = new UploadJournal(dir, { baseUrl: 'http://staging', keyFp: 'k1' });
    const production = new UploadJournal(dir, { baseUrl: 'http://production', keyFp: 'k1' });
    const a = await staging.open('asset', 10, SHA);
    await a.put(entry({ id: 'ast_staging', state: 'ready', sentSha256: SHA }));
    a.release();
    const b = await production.open('asset', 10, SHA);
    expect(b.entries).toEqual([]); // staging's upload is not production's: it is sent there too
    await b.put(entry({ id: 'ast_production', state: 'ready', sentSha256: SHA }));
    b.release();
    const ids = (j: UploadJournal) => j.peek('asset', 10, SHA).map((e) => e.id);
    expect([ids(staging), ids(production)]).toEqual([['ast_staging'], ['ast_production']]); // both logs live
    await staging.close();
    expect([ids(staging), ids(production)]).toEqual([['ast_staging'], ['ast_production']]); // one folded, one live
    await production.close();
    const reread = (baseUrl: string) => ids(new UploadJournal(dir, { baseUrl, keyFp: 'k1' }));
    expect([reread('http://staging'), reread('http://production')]).toEqual([['ast_staging'], ['ast_production']]); // both folded
    expect(logsOf(dir)).toEqual([]);
  });
});

describe('a size lock taken while another run folds its log (#37 session 10)', () => {
  // Found by a whole run of the suite: two `assets upload` of one large file on one config dir made two Assets. The
  // second run took the size lock once the first let it go, then listed the size's contents from the store and from
  // the logs. The first run folds its log at its end, under the fold's lock, not the size lock: store written, then
  // the log deleted. Read store-then-logs, a fold landing between the two reads is in neither (the store read before
  // it, the log gone after it), the size reads as never seen, and the file is reserved and sent again.
  it.each(['before the reads', 'right after the store read', 'after the reads'] as const)(
    'what another run recorded is seen when its fold lands %s',
    async (moment) => {
      const dir = tempDir('adops-log-');
      const first = new UploadJournal(dir, SCOPE);
      const slot = await first.open('asset', 10, SHA);
      await slot.put(entry({ state: 'ready', sentSha256: SHA }));
      slot.release();
      // The fold's effect, taken from a real fold, to be replayed at the moment chosen: the store file as the fold
      // writes it, and the log (with its lock) gone.
      const uploads = join(dir, 'uploads');
      const before = new Map(
        readdirSync(uploads, { recursive: true, encoding: 'utf8' })
          .filter((f) => statSync(join(uploads, f)).isFile())
          .map((f) => [f, readFileSync(join(uploads, f))]),
      );
      await first.close();
      const store = readdirSync(uploads, { recursive: true, encoding: 'utf8' }).find((f) => basename(f) === STORE_FILE)!;
      const folded = readFileSync(join(uploads, store));
      for (const [f, bytes] of before) writeFileSync(join(uploads, f), bytes); // the log back, as before the fold
      rmSync(join(uploads, store));
      expect(logsOf(dir)).toHaveLength(1);
      let landed = false;
      const fold = () => {
        writeFileSync(join(uploads, store), folded);
        for (const f of before.keys()) if (f.includes(RUNS_DIR)) rmSync(join(uploads, f), { force: true });
        landed = true;
      };
      const second = new UploadJournal(dir, SCOPE);
      if (moment === 'before the reads') fold();
      if (moment === 'right after the store read') {
        const files: { read: (...a: unknown[]) => unknown } = Reflect.get(second, 'store');
        const read = files.read.bind(files);
        files.read = (...a: unknown[]) => {
          const out = read(...a);
          if (!landed) fold();
          return out;
        };
      }
      const lock = await second.lockSize('asset', 10);
      if (moment === 'after the reads') fold();
      expect(landed).toBe(true);
      expect(logsOf(dir)).toEqual([]);
      // Right after the store read, before the fix: false, and the second run reserved and sent the file again.
      expect(lock.seen).toBe(true);
      lock.release();
    },
  );
});
