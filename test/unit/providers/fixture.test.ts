// A bad provider payload in a fixture stops the world from loading, with an
// error naming the field.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import { loadWorld, parseWorld } from '../../../src/sandbox/fixtures/load.js';
import { ManualClock } from '../../sandbox/clock.js';
import { createServices } from '../../../src/sandbox/services.js';
import { minimalWorld, withAdvertiser } from '../../helpers/sandbox.js';
import { providerA, providerC } from '../../sandbox/observe/world.js';

/** No uploads here: a files directory that is never created. */
const NO_FILES = '/nonexistent/adops-test-files';

async function loadError(adv: Record<string, unknown>): Promise<string> {
  const services = createServices({ db: openDatabase(':memory:'), clock: new ManualClock(), secret: Buffer.alloc(32), dataDir: null, filesDir: NO_FILES });
  try {
    loadWorld(services, parseWorld(withAdvertiser(minimalWorld(), { id: 'acc_x', ...adv })));
    return '';
  } catch (err) {
    const count = services.db.prepare('SELECT COUNT(*) FROM provider_entities').pluck().get();
    expect(count).toBe(0); // nothing half-written
    return (err as Error).message;
  } finally {
    services.db.close();
  }
}

describe('fixture provider entities', () => {
  it('name the bad field', async () => {
    expect(await loadError({ provider: 'provider_a', campaigns: [{ ...providerA.campaigns[0], daily_budget: '50.00' }] })).toContain(
      '/advertisers/0/campaigns/0/daily_budget',
    );
    expect(
      await loadError({
        provider: 'provider_b',
        campaigns: [{ campaign_id: '1', campaign_name: 'x', operation_status: 'ON', create_time: '2026-08-01 10:00:00', modify_time: '2026-08-01 10:00:00' }],
      }),
    ).toContain('/advertisers/0/campaigns/0/operation_status');
    expect(await loadError({ provider: 'provider_b', creatives: [{ id: '1' }] })).toContain('/advertisers/0/creatives: provider_b has no creatives');
  });

  it('check links between entities', async () => {
    expect(await loadError({ provider: 'provider_a', adGroups: [providerA.adGroups[0]] })).toContain('names campaign 1001');
    expect(await loadError({ provider: 'provider_c', campaigns: [providerC.campaigns[0]] })).toContain('/advertisers/0/campaigns/0/campaignBudget');
    expect(
      await loadError({ provider: 'provider_c', campaigns: [providerC.campaigns[3]], adGroups: [{ ...providerC.adGroups[0], campaignId: '9004' }] }),
    ).toContain('PERFORMANCE_MAX campaigns have no ad groups');
  });

  it('a valid world loads', async () => {
    expect(await loadError({ provider: 'provider_c', ...providerC })).toBe('');
  });
});
