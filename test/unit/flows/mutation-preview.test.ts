// mutations apply --preview / --undo-file judge a row only on a checked live answer: a live row
// that breaks what is read (a field the inverse needs), two rows for one id, a row whose id
// cannot be read, or a stored row passed off as live is never "no change" and yields no inverse.
import { describe, expect, it } from 'vitest';
import { previewRows, type RowPreview } from '../../../src/flows/mutation-preview.js';
import { HttpStubs, json, stubClient } from '../../helpers/http-stub.js';
import { campaignRow } from '../../helpers/contract-rows.js';

const row = (over: Record<string, unknown> = {}) =>
  campaignRow('acc_1', '1', { name: 'Same', status: 'PAUSED', budget: 5, budgetType: 'daily', budgetLevel: 'campaign', ...over });
const bodies = [
  { advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id: '1' } },
  { advertiserId: 'acc_1', action: 'rename', target: { type: 'campaign', id: '1' }, name: 'Same' },
  { advertiserId: 'acc_1', action: 'set_budget', target: { type: 'campaign', id: '1' }, budget: { amount: 5 } },
];

async function preview(live: unknown[]): Promise<RowPreview[]> {
  const http = new HttpStubs();
  http.on('GET', '/observe/acc_1/campaigns', json(200, { data: live }));
  const out = await previewRows(
    stubClient(http),
    bodies.map((body, i) => ({ line: i + 2, body })),
  );
  http.verify();
  expect(http.requests.map((r) => r.path)).toEqual(['/observe/acc_1/campaigns?ids=1&limit=1']);
  return out;
}

describe('preview on hostile live answers', () => {
  it('a checked row already so: "no change", with the inverse that restores it', async () => {
    const out = await preview([row()]);
    expect(out.map((p) => p.effect)).toEqual(['no change', 'no change', 'no change']);
    expect(out[0]!.inverse).toMatchObject({ action: 'pause' });
  });

  const hostile: Array<[string, unknown[]]> = [
    ['a status outside the contract', [row({ status: 'paused' })]],
    ['a name that is not text', [row({ name: 7 })]],
    ['a budget sent as text', [row({ budget: '5' })]],
    ['no createdAt (cannot tell live from stored)', [(({ createdAt: _c, ...r }) => r)(row())]],
    ['two rows for one id', [row(), row()]],
    ['a row whose id cannot be read beside none for the id', [row({ id: 9 })]],
    ['a stored row (createdAt set)', [row({ createdAt: '2026-01-01T00:00:00Z' })]],
    ['a row of another advertiser', [row({ advertiserId: 'acc_2' })]],
  ];
  for (const [what, live] of hostile) {
    it(`${what}: never "no change", and no inverse`, async () => {
      const out = await preview(live);
      for (const p of out) {
        expect(p.effect, `${what}: line ${p.line}`).not.toBe('no change');
        expect(p.inverse, `${what}: line ${p.line}`).toBeUndefined();
      }
    });
  }
});
