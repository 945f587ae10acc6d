// A sandbox closed while a pass of its mutation advancer is under way (a slow provider applying a
// change, the ticker's pass or a request's) waits for that pass before it closes its store: the
// change the provider applied is recorded, and no "database connection is not open" failure comes
// after close() resolved. (The suite's in-worker sandboxes logged that failure at their afterAll.)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { setProviderFaults } from '../../../src/sandbox/providers/faults.js';
import { openSqlite } from '../../../src/sandbox/store/sqlite.js';
import { APPLY_DELAY_MS, START_DELAY_MS } from '../../../src/sandbox/models/lifecycle.js';
import { request } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';
import { ManualClock } from '../clock.js';
import { mutationsWorld } from './world.js';

const dir = tempDir('adops-close-mid-pass-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('close() waits for the pass under way: the change is recorded as finished, not left running', async () => {
  const data = join(dir, 'sandbox.db');
  const clock = new ManualClock();
  const sb = await startSandbox({ host: '127.0.0.1', port: 0, data, world: mutationsWorld(), quiet: true, clock });
  const key = sb.keys.find((k) => k.label === 'full')!.key;
  setProviderFaults(sb.services, 'provider_a', { errorRate: 0, latencyMs: 300, rateLimitPerMinute: null, seed: 1 });
  const started = await request(sb.url, 'POST', '/mutations', {
    key,
    body: { advertiserId: 'acc_a', target: { type: 'campaign', id: '100' }, action: 'pause' },
  });
  expect(started.status).toBe(202);
  clock.advance(START_DELAY_MS + APPLY_DELAY_MS);

  const pass = sb.services.mutations.advance(); // the provider takes 300 ms: close comes while it waits
  await sb.close();
  await pass;

  const db = openSqlite(data, { readonly: true });
  try {
    const row = db.prepare<[string], { state: string }>('SELECT state FROM mutations WHERE id = ?').get(started.body.id);
    expect(row?.state).toBe('succeeded');
  } finally {
    db.close();
  }
});
