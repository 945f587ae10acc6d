// `--all --max 600` against the sandbox (issue 25, section 5): a page is never
// larger than the contract's 500, so the list is read in pages of 500 and the
// rest, never refused for asking limit=600 (400 invalid_request, exit 7).
import { describe, expect, it } from 'vitest';
import { DEMO, tempConfigDir } from '../helpers/cli.js';
import { useDemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

const sandbox = useDemoSandbox();

describe('--all --max above the largest page', () => {
  it('--all --max 600: exit 0, every request asks at most 500 rows', async () => {
    const r = await runAdopsInProcess(['observe', 'campaigns', '--all', '--max', '600', '-o', 'ndjson', '--debug'], {
      env: { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full },
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const limits = [...r.stderr.matchAll(/→ GET \S*[?&]limit=(\d+)/g)].map((m) => Number(m[1]));
    expect(limits.length).toBeGreaterThan(0);
    expect(Math.max(...limits)).toBeLessThanOrEqual(500);
    expect(r.stdout.split('\n').filter(Boolean).length).toBeLessThanOrEqual(600);
  });
});
