// doctor, config and `mutations start` end to end against the demo sandbox.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { run, useLoggedInSandbox } from './cli-fixture.js';

useLoggedInSandbox();

describe('doctor and config', () => {
  it('doctor passes with the sandbox login and names the missing permission otherwise (exit 3)', async () => {
    const ok = await run(['doctor', '--output', 'json']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).every((c: { ok: boolean }) => c.ok)).toBe(true);
    const limited = await run(['doctor', '--output', 'table'], { ADOPS_API_KEY: DEMO.observeOnly });
    expect(limited.code).toBe(3);
    expect(limited.stdout).toMatch(/✗ mutation:read[\s\S]*fix: /);
    const unpaid = await run(['doctor', '-o', 'table'], { ADOPS_API_KEY: DEMO.unsubscribed });
    expect(unpaid.stdout).toMatch(/✗ subscription/);
  });

  it('config set/get/list round-trip and refuse bad values before anything is written', async () => {
    const dir = tempConfigDir();
    const env = { ADOPS_CONFIG_DIR: dir };
    expect((await runAdopsInProcess(['config', 'set', 'output', 'ndjson'], { env })).code).toBe(0);
    expect((await runAdopsInProcess(['config', 'get', 'output'], { env })).stdout).toBe('ndjson\n');
    expect((await runAdopsInProcess(['config', 'set', 'output', 'xml'], { env })).code).toBe(2);
    expect((await runAdopsInProcess(['config', 'set', 'base-url', 'http://api.example.com'], { env })).code).toBe(2);
    expect((await runAdopsInProcess(['config', 'set', 'nope', '1'], { env })).code).toBe(2);
    const list = await runAdopsInProcess(['config', 'list'], { env });
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).key),
    ).toContain('retry-budget');
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});

describe('mutations start', () => {
  it('sends an Idempotency-Key and watches the change to its end', async () => {
    const list = await run(['observe', 'campaigns', '--advertiser', 'acc_acme_a_001', '--status', 'ACTIVE', '--limit', '1']);
    const campaign = JSON.parse(list.stdout)[0];
    const args = [
      'mutations',
      'start',
      '--advertiser',
      'acc_acme_a_001',
      '--action',
      'pause',
      '-f',
      'target.type=campaign',
      '-f',
      `target.id=${campaign.id}`,
      '--idempotency-key',
      `e2e-${campaign.id}`,
    ];
    const first = await run([...args, '--wait', '--interval', '0.1', '--timeout', '20']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ state: 'succeeded', target: { id: campaign.id } });
    // The sandbox honours the key: the same key and body answer the same mutation.
    const again = await run(args);
    expect(JSON.parse(again.stdout).id).toBe(JSON.parse(first.stdout).id);
  });
});
