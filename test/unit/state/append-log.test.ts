// AppendLog (src/state/durable-write.ts): a group commit whose lines are on disk
// when commit() resolves, whichever side of the loop runs its fsync; an fsync on
// the loop slower than its bound sends the log's later fsyncs to the pool (#37
// session 14). The journal of `mutations apply` asks for the loop.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppendLog } from '../../../src/state/durable-write.js';
import { Journal } from '../../../src/state/mutation-journal.js';
import { tempDir } from '../../helpers/temp.js';

describe('AppendLog', () => {
  for (const fsyncOnLoop of [false, true]) {
    it(`commit() resolves with every line appended before it on disk (fsync ${fsyncOnLoop ? 'on the loop' : 'in the pool'})`, async () => {
      const file = join(tempDir(), 'log.ndjson');
      // A bound no fsync reaches: the mode under test stays for the whole test, however slow the disk.
      const log = new AppendLog(file, 'a test log', { fsyncOnLoop, slowFsyncMs: 60_000 });
      log.append('{"a":1}\n');
      log.append('{"a":2}\n');
      const first = log.commit();
      // Appended after the commit started: it rides with that one or the next, never lost.
      log.append('{"a":3}\n');
      await first;
      expect(readFileSync(file, 'utf8').startsWith('{"a":1}\n{"a":2}\n')).toBe(true);
      await log.commit();
      expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n{"a":2}\n{"a":3}\n');
      expect(log.fsyncsOnLoop).toBe(fsyncOnLoop);
      log.close();
    });
  }

  it('an fsync on the loop past its bound sends the later ones to the pool, losing no line', async () => {
    const file = join(tempDir(), 'log.ndjson');
    // Every fsync takes more than -1 ms: the first one is "slow".
    const log = new AppendLog(file, 'a test log', { fsyncOnLoop: true, slowFsyncMs: -1 });
    expect(log.fsyncsOnLoop).toBe(true);
    log.append('one\n');
    await log.commit();
    expect(log.fsyncsOnLoop).toBe(false);
    log.append('two\n');
    await log.commit();
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    log.close();
  });

  it('the journal of `mutations apply` commits with its fsync on the loop (its lines come grouped already)', async () => {
    const path = join(tempDir(), 'rows.csv.adops-journal.ndjson');
    const journal = new Journal(path, { baseUrl: 'http://s', keyFp: 'k1' });
    journal.note({ row: 'r#1', line: 2, idempotencyKey: 'k', firstSentAt: 1, mutationId: null, state: 'sending' });
    await journal.commit();
    expect(journal.fsyncsOnLoop).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain('"row":"r#1"');
    journal.close();
  });
});
