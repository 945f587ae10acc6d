// streamRows when one of its workers fails (what the rows are handed to throws: stdout closed under a run): the
// others take no more rows, and the sends already under way end before the run's last journal flush, so every
// answer the service gave is on disk when streamRows throws. With Promise.all over the workers, streamRows threw at
// once: the answers of the rows in flight came after the flush (noted, never written: a re-run found those rows
// "in doubt"), and in one process (adops mcp, the fuzzer) they went on into whatever ran next.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { realRetryDeps } from '../../../src/client/retry.js';
import { streamRows, waitRows, type RowOutcome } from '../../../src/flows/mutation-apply.js';
import { Journal } from '../../../src/state/mutation-journal.js';
import { loopbackServer } from '../../helpers/drop-proxy.js';
import { oneAttemptClient } from '../../helpers/one-attempt-client.js';
import { tempDir } from '../../helpers/temp.js';

const posted: string[] = [];
const polls: string[] = [];
const server = loopbackServer((req, res) => {
  if (req.method === 'GET') {
    // waitRows' polls: mut_gone is refused (the key lost its access, say), mut_slow runs on.
    polls.push(String(req.url));
    const gone = req.url === '/mutations/mut_gone';
    res.writeHead(gone ? 403 : 200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(gone ? { error: 'forbidden', message: 'no access' } : { id: 'mut_slow', state: 'running' }));
  }
  const key = String(req.headers['idempotency-key']);
  posted.push(key);
  // The first answer comes at once, the others while the first row's outcome fails.
  setTimeout(
    () => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `mut_${posted.indexOf(key) + 1}`, state: 'pending' }));
    },
    posted.length === 1 ? 0 : 60,
  );
});

const client = () => oneAttemptClient(server.url);

it('a failing worker: no row taken after it, every answer under way on disk when streamRows throws', async () => {
  const path = join(tempDir('adops-journal-'), 'j.ndjson');
  const outcomes: string[] = [];
  const rows = Array.from({ length: 40 }, (_, i) => ({
    line: i + 2,
    body: { advertiserId: 'acc_1', action: 'rename', target: { type: 'campaign', id: String(i) }, name: `n${i}` },
  }));
  const run = streamRows(client(), rows, {
    journal: new Journal(path),
    concurrency: 4,
    onOutcome: (o) => {
      outcomes.push(o.state);
      throw new Error('stdout closed');
    },
  });
  await expect(run).rejects.toThrow('stdout closed');
  expect(outcomes).toEqual(['pending']);
  const sent = [...posted];
  expect(sent.length).toBeGreaterThan(1);
  const onDisk = readFileSync(path, 'utf8');
  for (const key of sent) expect(onDisk).toMatch(new RegExp(`"idempotencyKey":"${key}"[^\\n]*"mutationId":"mut_`));
  await sleep(150);
  expect(posted).toEqual(sent); // nothing sent after it threw
});

it('waitRows: a poll refused stops the others at once; none is sent after it threw', async () => {
  const outcomes: RowOutcome[] = [
    { line: 2, row: 'a#1', mutationId: 'mut_slow', state: 'pending' },
    { line: 3, row: 'b#1', mutationId: 'mut_gone', state: 'pending' },
  ];
  const started = Date.now();
  const waiting = waitRows(client(), outcomes, {
    journal: new Journal(undefined),
    concurrency: 2,
    timeoutMs: 30_000,
    intervalMs: 20,
    now: Date.now,
    sleep: realRetryDeps.sleep,
  });
  await expect(waiting).rejects.toThrow(/no access/);
  // Not after mut_slow's 30 s deadline: its poll was stopped with the pool.
  expect(Date.now() - started).toBeLessThan(5_000);
  const seen = polls.length;
  await sleep(150);
  expect(polls.length).toBe(seen);
});
