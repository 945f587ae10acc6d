// `observe drift` on an advertiser whose provider the stored copy never holds
// (provider_d: stored rows carry provider_a, provider_b or provider_c only):
// its live rows are not drift. Says so once on stderr, exit 0 with --exit-code
// (it reported every entity and exited 11 for ever). The BUILT binary against
// a sandbox child of the demo world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, runAdops, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';

const D = 'acc_acme_d_001'; // the demo world's provider_d advertiser
let sandbox: SandboxChild;
const cfg = tempConfigDir();
const cli = (args: readonly string[]) =>
  runAdops(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full }, timeoutMs: 30_000 });

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandboxChild([]);
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
});

describe('observe drift on a provider the stored copy does not hold', () => {
  it('the advertiser is provider_d, with live rows and no stored ones', async () => {
    const live = await cli(['observe', 'campaigns', '--live', D, '--limit', '200', '-o', 'json', '--query', '[].provider']);
    expect(live.code, live.stderr).toBe(0);
    const providers = JSON.parse(live.stdout) as string[];
    expect(providers.length).toBeGreaterThan(0);
    expect(new Set(providers)).toEqual(new Set(['provider_d']));
    const stored = await cli(['observe', 'campaigns', '--advertiser', D, '-o', 'json']);
    expect(JSON.parse(stored.stdout)).toEqual([]);
  });

  for (const level of ['campaigns', 'ad-groups'] as const) {
    it(`--level ${level} --exit-code: no drift rows, exit 0, and one note on stderr`, async () => {
      const r = await cli(['observe', 'drift', D, '--level', level, '--exit-code', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const notes = r.stderr.split('\n').filter((l) => l.includes('does not hold'));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(/the stored copy does not hold provider_d/);
      expect(notes[0]).toContain(D);
    });
  }
});
