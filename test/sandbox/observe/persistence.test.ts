// Provider state and faults live in SQLite: a change at the provider and the
// configured faults survive a restart of the sandbox on the same store.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { applyProviderChange } from '../../../src/sandbox/providers/mutate.js';
import { readFaults, setProviderFaults } from '../../../src/sandbox/providers/faults.js';
import { request, TEST_FULL_KEY } from '../../helpers/sandbox.js';
import { observeWorld } from './world.js';
import { tempDir } from '../../helpers/temp.js';

const dir = tempDir('adops-observe-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('restart', () => {
  it('keeps provider entities, their changes and faults', async () => {
    const data = join(dir, 'sandbox.db');
    const first = await startSandbox({ host: '127.0.0.1', port: 0, data, world: observeWorld(), quiet: true });
    expect((await applyProviderChange(first.services, 'acc_c', { entityType: 'campaign', entityId: '9002', name: 'Renamed before restart' })).ok).toBe(true);
    setProviderFaults(first.services, 'provider_b', { errorRate: 0.25, latencyMs: 0, rateLimitPerMinute: 30, seed: 3 });
    await first.close();

    const second = await startSandbox({ host: '127.0.0.1', port: 0, data, quiet: true });
    try {
      const live = await request(second.url, 'GET', '/observe/acc_c/campaigns', { key: TEST_FULL_KEY, query: { ids: '9002' } });
      expect(live.body.data[0].name).toBe('Renamed before restart');
      expect(readFaults(second.services, 'provider_b')).toEqual({ errorRate: 0.25, latencyMs: 0, rateLimitPerMinute: 30, seed: 3 });
      const stored = await request(second.url, 'GET', '/observe/campaigns', { key: TEST_FULL_KEY, query: { advertiserId: 'acc_a' } });
      expect(stored.body.data.map((r: { id: string }) => r.id)).toEqual(['1002', '1001']);
    } finally {
      await second.close();
    }
  });
});
