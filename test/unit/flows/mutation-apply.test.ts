// applyRows against a loopback server that honours Idempotency-Keys, counts
// what is in flight and can answer 429: bounded concurrency, rate limits waited
// out by the client's one retry policy (one bound on sends per row), and
// resuming from a journal without doubling.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { ApiClient } from '../../../src/client/http.js';
import { DEFAULT_THROTTLE } from '../../../src/client/retry.js';
import type { Transport } from '../../../src/client/transport.js';
import { loopbackServer } from '../../helpers/drop-proxy.js';
import { oneAttemptClient } from '../../helpers/one-attempt-client.js';
import { applyRows, KEY_SAFE_MS, streamRows, type RowOutcome } from '../../../src/flows/mutation-apply.js';
import { rowIds } from '../../../src/flows/mutation-match.js';
import { Journal } from '../../../src/state/mutation-journal.js';
import { tempDir } from '../../helpers/temp.js';

let byKey = new Map<string, string>();
let posts: string[] = [];
let inFlight = 0;
let maxInFlight = 0;
let rateLimited = 0;
/** When set, each POST checks that its Idempotency-Key is in this journal file already. */
let journalOnPost: string | undefined;
let keysOnDisk: boolean[] = [];
let answerDelayMs = 20;
/** When set, each answer checks that the answer before it has its line in this journal file already. */
let journalOnAnswer: string | undefined;
let previousAnswerOnDisk: boolean[] = [];

const server = loopbackServer((req, res, text) => {
  const key = String(req.headers['idempotency-key']);
  posts.push(key);
  if (journalOnPost) keysOnDisk.push(readFileSync(journalOnPost, 'utf8').includes(`"idempotencyKey":"${key}"`));
  if (rateLimited > 0) {
    rateLimited--;
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
    return res.end(JSON.stringify({ error: 'rate_limited', message: 'slow down' }));
  }
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  setTimeout(() => {
    inFlight--;
    // The answer before this one: its journal line on disk by now?
    if (journalOnAnswer) previousAnswerOnDisk.push(byKey.size === 0 || readFileSync(journalOnAnswer, 'utf8').includes(`"mutationId":"mut_${byKey.size}"`));
    if (!byKey.has(key)) byKey.set(key, `mut_${byKey.size + 1}`);
    res.writeHead(202, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: byKey.get(key), state: 'pending', body: JSON.parse(text) }));
  }, answerDelayMs);
});
beforeEach(() => {
  byKey = new Map();
  posts = [];
  maxInFlight = 0;
  rateLimited = 0;
  journalOnPost = undefined;
  keysOnDisk = [];
  answerDelayMs = 20;
  journalOnAnswer = undefined;
  previousAnswerOnDisk = [];
});

const client = () => oneAttemptClient(server.url);
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    line: i + 2,
    body: { advertiserId: 'acc_1', action: 'rename', target: { type: 'campaign', id: String(i) }, name: `n${i}` },
  }));
const journalFile = () => join(tempDir('adops-journal-'), 'j.ndjson');

describe('applyRows', () => {
  it('keeps at most --concurrency changes in flight and records each one', async () => {
    const path = journalFile();
    const out = await applyRows(client(), rows(9), { journal: new Journal(path), concurrency: 3 });
    expect(out.every((o) => o.state === 'pending' && o.mutationId)).toBe(true);
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(byKey.size).toBe(9);
    // Reloaded: every row has its mutation, so a second run sends nothing.
    const again = await applyRows(client(), rows(9), { journal: new Journal(path), concurrency: 3 });
    expect(again.every((o) => o.earlier)).toBe(true);
    expect(posts).toHaveLength(9);
  });

  it("write-ahead, a batch at a time: every POST's Idempotency-Key is in the journal file before the POST arrives", async () => {
    const path = journalFile();
    journalOnPost = path;
    // A slow source (a file read row by row): workers take rows while the batch they belong to is still being read.
    async function* slowly() {
      for (const r of rows(60)) {
        await new Promise((resolve) => setTimeout(resolve, 3));
        yield r;
      }
    }
    const out: RowOutcome[] = [];
    await streamRows(client(), slowly(), { journal: new Journal(path), concurrency: 4, onOutcome: (o) => void out.push(o) });
    expect(out.every((o) => o.mutationId)).toBe(true);
    expect(keysOnDisk).toHaveLength(60);
    expect(keysOnDisk.every(Boolean)).toBe(true);
  });

  it("an answer's line reaches the disk within its commit window while later rows are still in flight (no batch commit left to ride with)", async () => {
    const path = journalFile();
    answerDelayMs = 150;
    previousAnswerOnDisk = [];
    journalOnAnswer = path;
    // Two rows, one at a time: both read and their keys committed in one batch before the first POST; the first
    // answer's line then has only its own window (25 ms) to reach the disk before the second answer, 150 ms later.
    const out = await applyRows(client(), rows(2), { journal: new Journal(path), concurrency: 1 });
    expect(out.map((o) => o.mutationId)).toEqual(['mut_1', 'mut_2']);
    expect(previousAnswerOnDisk).toEqual([true, true]);
  });

  it('a 429 is waited out by the client, which sends the row again with the same key', async () => {
    rateLimited = 2;
    const waits: number[] = [];
    let t = 0;
    const deps = { now: () => t, sleep: async (ms: number) => void (waits.push(ms), (t += ms)), random: () => 0 };
    const throttling = new ApiClient({
      baseUrl: server.url,
      apiKey: 'acr_t',
      userAgent: 'adops/test',
      deps,
      retry: {
        maxAttempts: 1,
        baseDelayMs: 1,
        maxDelayMs: 1,
        budgetMs: 5_000,
        throttle: { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 1000, budgetMs: 60_000 },
      },
    });
    const out = await applyRows(throttling, rows(2), { journal: new Journal(undefined), concurrency: 2 });
    expect(out.map((o) => o.state)).toEqual(['pending', 'pending']);
    expect(waits.some((w) => w >= 1000)).toBe(true);
    expect(byKey.size).toBe(2);
    expect(posts).toHaveLength(4);
    expect(new Set(posts).size).toBe(2);
  });

  it("one bound on sends per row: a service that always answers 429 gets at most the throttle policy's attempts, not a retry loop around it", async () => {
    let sends = 0;
    const always429: Transport = {
      send: async () => {
        sends++;
        return {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
          body: Readable.from([Buffer.from('{"error":"rate_limited","message":"slow down"}')]),
        };
      },
      close: async () => {},
    };
    let t = 0;
    const deps = { now: () => t, sleep: async (ms: number) => void (t += ms), random: () => 0 };
    // The default policies, as a command runs them.
    const c = new ApiClient({ baseUrl: 'https://api.adops.test', apiKey: 'acr_t', userAgent: 'adops/test', transport: always429, deps });
    const out = await applyRows(c, rows(1), { journal: new Journal(undefined), concurrency: 1, now: deps.now, sleep: deps.sleep });
    expect(out[0]).toMatchObject({ state: 'refused', status: 429 });
    expect(sends).toBeGreaterThan(1);
    expect(sends).toBeLessThanOrEqual(DEFAULT_THROTTLE.maxAttempts);
  });

  it('resends a row in doubt with its recorded key; one in doubt past the key lifetime is not sent', async () => {
    const path = journalFile();
    const r = rows(2);
    const [a, b] = rowIds(r.map((x) => x.body));
    const journal = new Journal(path);
    journal.record({ row: a!, line: 2, idempotencyKey: 'key-in-doubt', firstSentAt: Date.now() - 1000 });
    journal.record({ row: b!, line: 3, idempotencyKey: 'key-too-old', firstSentAt: Date.now() - KEY_SAFE_MS - 1000 });
    byKey.set('key-in-doubt', 'mut_made_before');
    const out = await applyRows(client(), r, { journal: new Journal(path), concurrency: 2 });
    expect(out[0]).toMatchObject({ mutationId: 'mut_made_before', state: 'pending' });
    expect(out[1]).toMatchObject({ state: 'unknown' });
    expect(out[1]!.error).toMatch(/key-too-old may have expired/);
    expect(posts).toEqual(['key-in-doubt']);
    expect(readFileSync(path, 'utf8')).toContain('"mutationId":"mut_made_before"');
  });

  it('a row whose change failed is not sent again, unless --retry-failed (then with a new key)', async () => {
    const path = journalFile();
    const r = rows(1);
    const [a] = rowIds(r.map((x) => x.body));
    new Journal(path).record({ row: a!, line: 2, idempotencyKey: 'key-of-failed', firstSentAt: Date.now(), mutationId: 'mut_failed', state: 'failed' });
    const kept = await applyRows(client(), r, { journal: new Journal(path), concurrency: 1 });
    expect(kept[0]).toMatchObject({ mutationId: 'mut_failed', state: 'failed', earlier: true });
    expect(posts).toHaveLength(0);
    const retried = await applyRows(client(), r, { journal: new Journal(path), concurrency: 1, retryFailed: true });
    expect(posts).toHaveLength(1);
    expect(posts[0]).not.toBe('key-of-failed');
    expect(retried[0]!.mutationId).not.toBe('mut_failed');
    // The journal now names the new change: a further run sends nothing.
    await applyRows(client(), r, { journal: new Journal(path), concurrency: 1 });
    expect(posts).toHaveLength(1);
  });

  it('identical rows are distinct changes', () => {
    const body = rows(1)[0]!.body;
    const [x, y] = rowIds([body, { ...body }]);
    expect(x).not.toBe(y);
    expect(x!.split('#')[0]).toBe(y!.split('#')[0]);
  });
});
