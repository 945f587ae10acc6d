// `sandbox serve` runs ingestion on a schedule (issue #18 item 12): a paused
// campaign shows PAUSED in stored reads without anyone calling
// POST /_sandbox/ingest; `--ingest-every 0` keeps ingestion manual (tests).
import { describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, startSandboxChild, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

const ACC = 'acc_acme_a_001';

async function pauseAndWatch(ingestEvery: string, watchMs: number): Promise<{ status: string | undefined; stderr: string }> {
  ensureBuilt();
  // A child: the serve command's --ingest-every flag and its stderr are what is tested.
  const sb = await startSandboxChild(['--ingest-every', ingestEvery]);
  try {
    const env = { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: DEMO.full };
    const stored = async () =>
      JSON.parse((await runAdopsInProcess(['observe', 'campaigns', '--advertiser', ACC, '-o', 'json'], { env })).stdout) as Array<{
        id: string;
        status: string;
      }>;
    const campaign = (await stored()).find((c) => c.status === 'ACTIVE')!.id;
    const paused = await runAdopsInProcess(['mutations', 'pause', ACC, '--campaign', campaign, '--wait', '--interval', '0.1'], { env, timeoutMs: 30_000 });
    expect(paused.code, paused.stderr).toBe(0);
    let status: string | undefined;
    for (const until = Date.now() + watchMs; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      status = (await stored()).find((c) => c.id === campaign)?.status;
      if (status === 'PAUSED') break;
    }
    return { status, stderr: sb.stderr() };
  } finally {
    await sb.stop();
  }
}

describe('sandbox serve --ingest-every', () => {
  it('stored reads catch up on their own: PAUSED within a few rounds of --ingest-every 0.5', async () => {
    const r = await pauseAndWatch('0.5', 8_000);
    expect(r.status).toBe('PAUSED');
    expect(r.stderr).toContain('stored reads refresh every 0.5 s');
  }, 60_000);

  it('--ingest-every 0: stored reads stay as ingested until POST /_sandbox/ingest', async () => {
    const r = await pauseAndWatch('0', 1_500);
    expect(r.status).toBe('ACTIVE');
    expect(r.stderr).toContain('--ingest-every 0');
  }, 60_000);
});
