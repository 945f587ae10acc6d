// One flow of each kind through the built binary against a `sandbox serve`
// child: a read, a mutation with --wait, an upload, a revision-safe edit.
// .ci/run runs this file (with demo.test.ts and the store tests) on the newest
// Node 22 and 24 too, so "supported Node majors" in the README is tested
// (issue #18 item 2); here it runs on the suite's Node like every e2e test.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, runAdops, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';
import { png } from '../unit/uploads/media-samples.js';
import { tempDir } from '../helpers/temp.js';

const ACC = 'acc_acme_a_001';
let sb: SandboxChild;
let env: Record<string, string>;
const adops = (args: string[]) => runAdops(args, { env, timeoutMs: 30_000 });

beforeAll(async () => {
  ensureBuilt();
  sb = await startSandboxChild();
  env = { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: DEMO.full };
}, 60_000);
afterAll(async () => {
  expect(await sb.stop()).toBe(0); // a clean exit on SIGTERM, no abort in the SQLite module
});

describe(`on Node ${process.version}`, () => {
  it('read: stored campaigns', async () => {
    const r = await adops(['observe', 'campaigns', '--advertiser', ACC, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it('mutation: pause --wait ends succeeded', async () => {
    const list = JSON.parse((await adops(['observe', 'campaigns', '--advertiser', ACC, '-o', 'json'])).stdout) as Array<{ id: string; status: string }>;
    const r = await adops(['mutations', 'pause', ACC, '--campaign', list.find((c) => c.status === 'ACTIVE')!.id, '--wait', '--interval', '0.1', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'succeeded' });
  });

  it('upload: a PNG becomes a ready Asset', async () => {
    const file = join(tempDir('adops-smoke-'), 'hero.png');
    writeFileSync(file, png(32, 32));
    const r = await adops(['assets', 'upload', file, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"ready"');
  });

  it('edit: a revision-safe update of a Brand', async () => {
    expect((await adops(['brands', 'create', '--slug', 'smoke', '--name', 'Smoke'])).code).toBe(0);
    const r = await adops(['brands', 'update', 'smoke', '--description', 'edited', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ description: 'edited' });
  });
});
