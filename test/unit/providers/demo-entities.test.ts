// The demo world's provider side: deterministic, big enough (hundreds of
// campaigns, ad groups and ads overall), shaped per provider, and fast to load.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import { demoWorld } from '../../../src/sandbox/fixtures/demo.js';
import { loadWorld } from '../../../src/sandbox/fixtures/load.js';
import { ManualClock } from '../../sandbox/clock.js';
import { createServices } from '../../../src/sandbox/services.js';
import { generateDemoEntities, DEMO_INSIGHTS_LAST_DAY, DEMO_INSIGHT_DAYS } from '../../../src/sandbox/providers/demo-entities.js';

/** No uploads here: a files directory that is never created. */
const NO_FILES = '/nonexistent/adops-test-files';

describe('demo provider entities', () => {
  it('are deterministic for an advertiser', () => {
    const adv = { id: 'acc_x', provider: 'provider_c', name: 'x', currency: 'USD' };
    expect(JSON.stringify(generateDemoEntities(adv))).toBe(JSON.stringify(generateDemoEntities(adv)));
    expect(JSON.stringify(generateDemoEntities(adv))).not.toBe(JSON.stringify(generateDemoEntities({ ...adv, id: 'acc_y' })));
  });

  it('load with the demo world and ingest hundreds of rows of each kind', async () => {
    const started = performance.now();
    const world = demoWorld();
    const db = openDatabase(':memory:');
    const services = createServices({ db, clock: new ManualClock(), secret: Buffer.alloc(32), dataDir: null, filesDir: NO_FILES });
    loadWorld(services, world);
    const elapsed = performance.now() - started;
    const counts = Object.fromEntries(
      (db.prepare('SELECT kind, COUNT(*) AS n FROM observe_rows GROUP BY kind').all() as Array<{ kind: string; n: number }>).map((r) => [r.kind, r.n]),
    );
    expect(counts.campaign).toBeGreaterThanOrEqual(200);
    expect(counts.ad_group).toBeGreaterThanOrEqual(200);
    expect(counts.ad).toBeGreaterThanOrEqual(200);
    expect(counts.creative).toBeGreaterThan(0);
    expect(counts.asset_group).toBeGreaterThan(0);
    // provider_d is never stored; every stored row is a, b or c.
    const providers = db.prepare('SELECT DISTINCT provider FROM observe_rows ORDER BY provider').pluck().all();
    expect(providers).toEqual(['provider_a', 'provider_b', 'provider_c']);
    const days = db.prepare('SELECT MIN(date) AS first, MAX(date) AS last, COUNT(DISTINCT date) AS n FROM observe_insights').get() as {
      first: string;
      last: string;
      n: number;
    };
    expect(days).toEqual({ first: '2026-07-03', last: DEMO_INSIGHTS_LAST_DAY, n: DEMO_INSIGHT_DAYS });
    // Automated provider_c campaigns have asset groups and no ad groups.
    const pmaxWithAdGroups = db
      .prepare(
        `SELECT COUNT(*) FROM observe_rows g JOIN provider_entities c ON c.advertiser_id = g.advertiser_id AND c.kind = 'campaign' AND c.id = g.campaign_id
       WHERE g.kind = 'ad_group' AND json_extract(c.payload, '$.advertisingChannelType') = 'PERFORMANCE_MAX'`,
      )
      .pluck()
      .get();
    expect(pmaxWithAdGroups).toBe(0);
    // Not asserted (timing depends on the machine's load); bench/stored-read.js reports it.
    console.log(`demo world load + ingest: ${elapsed.toFixed(0)} ms`, counts);
    db.close();
  });
});
