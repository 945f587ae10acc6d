// SIGTERM or one Ctrl-C while stdout is blocked (a reader that stalls): the
// BUILT binary exits 143 / 130 within a second, whatever stdout does, and a
// reader leaving afterwards does not turn that into 0.
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { loopbackServer } from '../helpers/drop-proxy.js';

// Pages without end (a new cursor each time): the CLI writes until stdout is full.
let served = 0;
const endless = loopbackServer((_req, res) => {
  served++;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `${served}-${i}`, name: 'x'.repeat(100) })), nextCursor: `c${served}` }));
});

beforeAll(() => ensureBuilt());

async function stallThenSignal(signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, 'api', 'GET', '/observe/campaigns', '--paginate', '--output', 'ndjson'], {
    cwd: ROOT,
    env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: endless.url, ADOPS_API_KEY: 'acr_test_full_0001' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause(); // never read: the pipe fills and stays full
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  // Stalled: pages were served, then none for 300 ms (the writer waits for the pipe).
  const before = served;
  for (let i = 0; i < 200 && served === before; i++) await new Promise((r) => setTimeout(r, 50));
  for (let last = -1; last !== served;) {
    last = served;
    await new Promise((r) => setTimeout(r, 300));
  }
  const sent = Date.now();
  child.kill(signal);
  const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 3_000))]);
  const ms = Date.now() - sent;
  child.stdout.destroy(); // the reader leaves
  if (code === 'still running') await exited;
  return { code, ms, stderr };
}

describe('a signal while stdout is blocked', () => {
  for (const [signal, expected] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal}: exit ${expected} within ~1 s, the reader still stalled`, async () => {
      const r = await stallThenSignal(signal);
      expect(r.code, r.stderr.slice(-500)).toBe(expected);
      expect(r.ms).toBeLessThan(1_500);
    }, 20_000);
  }
});
