// --wait's pace (src/client/poll-pace.ts): without --interval the polls come 0.25 s after
// the start and the gaps double to 2 s, so a change that ends in half a second is seen in
// well under a second (a fixed 2 s made every wait, and every MCP call with wait, last 2 s);
// --interval N is N every time. The times are read off the run's virtual clock as each
// poll reaches a gh-style stub that fails when a poll it expected never came.
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERVAL_HELP, pollGapMs, pollPace } from '../../src/client/poll-pace.js';
import { tempConfigDir } from '../helpers/cli.js';
import { HttpStubs } from '../helpers/http-stub.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const cfg = tempConfigDir();
let http = new HttpStubs();
afterEach(() => http.verify());

/** `mutations watch mut_1 [extra]`: the poll times after the first, the exit and the last state printed. */
async function watch(states: string[], extra: string[] = []) {
  http = new HttpStubs();
  const start = Date.parse('2026-12-03T12:00:00Z');
  const clock = virtualClock(start);
  const at: number[] = [];
  for (const state of states)
    http.on('GET', '/mutations/mut_1', () => {
      at.push(clock.now() - start);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify({ id: 'mut_1', state }))]) };
    });
  const r = await runAdopsInProcess(['mutations', 'watch', 'mut_1', '--output', 'json', ...extra], {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: 'https://api.adops.test', ADOPS_API_KEY: 'acr_test_full_0001' },
    transport: http,
    clock,
  });
  return { at, code: r.code, state: r.stdout ? (JSON.parse(r.stdout) as { state: string }).state : undefined, stderr: r.stderr };
}

describe('--wait polls soon at first, then every 2 s; --interval is every gap', () => {
  it('the pace itself: 250, 500, 1000, 2000, 2000 ms without --interval; N s each with it (at least 50 ms)', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => pollGapMs(pollPace(undefined), n))).toEqual([250, 500, 1000, 2000, 2000, 2000]);
    expect([0, 1, 5].map((n) => pollGapMs(pollPace(3), n))).toEqual([3000, 3000, 3000]);
    expect(pollGapMs(pollPace(0), 0)).toBe(50);
    expect(INTERVAL_HELP).toBe('time between polls with --wait (default: 0.25 s at first, doubling to 2)');
  });

  it('without --interval: polls at 0, 0.25, 0.75, 1.75, 3.75 and 5.75 s; the state that ends it is printed, exit 0', async () => {
    const r = await watch(['pending', 'running', 'running', 'running', 'running', 'succeeded']);
    expect({ code: r.code, state: r.state }, r.stderr).toEqual({ code: 0, state: 'succeeded' });
    expect(r.at).toEqual([0, 250, 750, 1750, 3750, 5750]);
  });

  it('--interval 1: a poll every second from the first', async () => {
    const r = await watch(['running', 'running', 'running', 'failed'], ['--interval', '1']);
    expect({ code: r.code, state: r.state }, r.stderr).toEqual({ code: 9, state: 'failed' });
    expect(r.at).toEqual([0, 1000, 2000, 3000]);
  });

  it('--timeout 1 without --interval: the polls it has time for, then exit 8 with the last state', async () => {
    const r = await watch(['running', 'running', 'running', 'running'], ['--timeout', '1']);
    expect({ code: r.code, state: r.state }, r.stderr).toEqual({ code: 8, state: 'running' });
    expect(r.at).toEqual([0, 250, 750, 1000]);
  });
});
