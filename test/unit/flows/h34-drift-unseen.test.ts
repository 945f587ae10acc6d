// observe drift against a live side that answers a lookup by ids what its
// whole listing did not show (found by the contract fuzzer): pass 2 cannot
// lean on pass 1 having judged an id it never saw. A broken field, two rows of
// one id, or a row of another advertiser is said there, once; a row of a
// provider the stored copy never holds is left out, but not its broken fields.
import { describe, expect, it } from 'vitest';
import { drift, type DriftRow } from '../../../src/flows/drift.js';
import { HttpStubs, json, stubClient } from '../../helpers/http-stub.js';
import { campaignRow } from '../../helpers/contract-rows.js';

const row = (id: string, over: Record<string, unknown> = {}) => campaignRow('acc_1', id, { name: `n${id}`, budget: 5, ...over });

/** The differences, with: the live listing, the stored listing, and the live lookup of the stored page's ids. */
async function run(live: unknown[], stored: unknown[], lookup?: unknown[], storedLookup?: unknown[]): Promise<DriftRow[]> {
  const http = new HttpStubs();
  http.on('GET', '/observe/acc_1/campaigns', json(200, { data: live }));
  if (storedLookup) http.on('GET', '/observe/campaigns', json(200, { data: storedLookup }));
  http.on('GET', '/observe/campaigns', json(200, { data: stored }));
  if (lookup) http.on('GET', '/observe/acc_1/campaigns', json(200, { data: lookup }));
  const out: DriftRow[] = [];
  for await (const rows of drift(stubClient(http), { advertiserId: 'acc_1', level: 'campaigns', fields: ['status', 'budget'] })) out.push(...rows);
  http.verify();
  return out;
}

describe('pass 2 says what pass 1 never saw', () => {
  it('a stored row with a broken status, found only by the live lookup: "not comparable", not skipped as judged', async () => {
    const rows = await run([], [row('1', { status: 'enabled' })], [row('1')]);
    expect(rows).toEqual([{ id: '1', name: 'n1', field: 'status', stored: expect.stringMatching(/^not comparable: status: not one of/), live: 'ACTIVE' }]);
  });

  it('a live lookup row with a broken budget: "not comparable"', async () => {
    const rows = await run([], [row('1')], [row('1', { budget: '5' })]);
    expect(rows).toEqual([{ id: '1', name: 'n1', field: 'budget', stored: 5, live: expect.stringMatching(/^not comparable: budget: /) }]);
  });

  it('two stored rows of one id the live lookup holds: said once', async () => {
    const rows = await run([], [row('1'), row('1')], [row('1')]);
    expect(rows).toEqual([{ id: '1', name: 'n1', field: 'id', stored: 'not comparable: the stored read answered 2 rows for this id', live: null }]);
  });

  it('a lookup row of another advertiser beside the asked id: that id is not comparable', async () => {
    const rows = await run([], [row('1')], [row('1'), row('1', { advertiserId: 'acc_other' })]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: '1', field: 'id', live: expect.stringMatching(/^not comparable: /) });
  });

  it('what pass 1 already said is not said again', async () => {
    const broken = row('1', { status: 'enabled' });
    const rows = await run([row('1')], [broken], [row('1')], [broken]);
    expect(rows.filter((r) => r.field === 'status')).toHaveLength(1);
  });
});

describe('a provider the stored copy never holds', () => {
  it('is left out, but a compared field it breaks is said', async () => {
    const rows = await run([row('9', { provider: 'provider_d', budget: 'lots' })], []);
    expect(rows).toEqual([{ id: '9', name: 'n9', field: 'budget', stored: null, live: expect.stringMatching(/^not comparable: budget: /) }]);
  });
});
