// Issue 9's throttled provider, end to end in-process: a sandbox whose
// provider_a allows 5 calls a minute (every call counts, refused or not), and
// the runner with one manual clock for both, so waiting out a minute takes no
// real time. Before the fix `--all` gave up within a second with part of the
// rows although the provider said "retry in a minute".
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllPools } from '../../../src/client/http.js';
import { runCli } from '../../../src/cli/run.js';
import { getRegistry } from '../../../src/commands/index.js';
import { demoWorld } from '../../../src/sandbox/fixtures/demo.js';
import { ManualClock } from '../../sandbox/clock.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';

const KEY = 'acr_demo_acme_full_0001';
const LIVE = ['observe', 'campaigns', '--live', 'acc_acme_a_001', '--all', '--limit', '2', '-o', 'ndjson'];
const clock = new ManualClock(Date.UTC(2026, 10, 1));
let sb: TestSandbox;

function stream() {
  const s = new PassThrough();
  let text = '';
  s.on('data', (c) => (text += c));
  return Object.assign(s, { text: () => text });
}

async function adops(argv: string[]) {
  const stdout = stream();
  const stderr = stream();
  const started = clock.now();
  const code = await runCli(argv, {
    stdin: stream(),
    stdout,
    stderr,
    signal: new AbortController().signal,
    registry: getRegistry(),
    env: { ADOPS_CONFIG_DIR: join(tempDir('adops-thr-'), 'cfg'), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: KEY },
    clock: { now: () => clock.now(), sleep: async (ms) => clock.advance(ms) },
  });
  const ids = stdout
    .text()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);
  return { code, ids, stderr: stderr.text(), waitedMs: clock.now() - started };
}

async function limit(perMinute: number | null) {
  const res = await sb.req('PUT', '/_sandbox/faults/provider_a', { body: { errorRate: 0, latencyMs: 0, rateLimitPerMinute: perMinute, seed: 1 } });
  expect(res.status).toBe(200);
  clock.advance(61_000); // an empty window to start from
}

beforeAll(async () => {
  sb = await startTestSandbox({ world: demoWorld(), clock });
});
afterAll(async () => {
  await closeAllPools();
  await sb.close();
});

describe('a throttled provider', () => {
  it('--all waits out the per-minute window (each wait on stderr) and returns every row exactly once', async () => {
    await limit(null);
    const clean = await adops(LIVE);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.ids.length).toBeGreaterThan(10);
    await limit(5);
    const r = await adops(LIVE);
    expect(r.code, r.stderr).toBe(0);
    expect(r.ids).toEqual(clean.ids);
    expect(r.stderr).toMatch(/provider_a is rate limiting \(502 provider_error\): waiting \d+(\.\d)? s before retrying/);
    // It outlasted at least one minute, in bounded waits.
    expect(r.waitedMs).toBeGreaterThan(60_000);
  });

  it('gives up within --retry-budget with an honest message and the cursor to resume from', async () => {
    await limit(1);
    const r = await adops([...LIVE, '--retry-budget', '20']);
    expect(r.code).toBe(6);
    const error = (JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: { hint: string; nextCursor?: string } }).error;
    expect(error.hint).toMatch(/provider_a was still rate limiting after \d+ attempts? over \d+ s/);
    expect(error.nextCursor).toBeDefined();
    expect(r.waitedMs).toBeLessThanOrEqual(20_000);
    await limit(null);
  });
});
