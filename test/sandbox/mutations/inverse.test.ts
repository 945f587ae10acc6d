// The inverse of each reversible action (src/contract/mutation-actions.ts),
// played against the sandbox: read the entity live, make the change, make the
// inverse read from the row before it, and the live row is the one before again
// (bar the provider's edit time), on provider_a, provider_b and provider_c.
import { describe, expect, it } from 'vitest';
import { useTestSandbox } from '../../helpers/sandbox.js';
import { ManualClock } from '../clock.js';
import { mutationsWorld } from './world.js';
import { settle, start } from './helpers.js';
import { inverseOf, type LiveRow } from '../../../src/contract/mutation-actions.js';
import type { CreateMutation } from '../../../src/contract/schemas/mutations.js';
import { adGroupRowSchema, campaignRowSchema } from '../../../src/contract/schemas/observe.js';

const clock = new ManualClock();
const sb = useTestSandbox({ world: mutationsWorld(), clock });

async function liveRow(body: CreateMutation): Promise<LiveRow> {
  const { advertiserId, target } = body;
  const res = await sb.req('GET', `/observe/${advertiserId}/${target.type === 'campaign' ? 'campaigns' : 'ad-groups'}`, { key: sb.keys.full });
  expect(res.status, res.text).toBe(200);
  const row: unknown = res.body.data.find((r: { id: string }) => r.id === target.id);
  return target.type === 'campaign' ? campaignRowSchema.parse(row) : adGroupRowSchema.parse(row);
}

async function change(body: CreateMutation): Promise<void> {
  const res = await start(sb, body);
  expect(res.status, res.text).toBe(202);
  const [done] = await settle(sb, clock, [res.body.id]);
  expect(done.state, JSON.stringify(done.error)).toBe('succeeded');
}

const withoutEditTime = ({ updatedTime: _t, ...rest }: LiveRow) => rest;

/** Change, then undo from the row before: the live row is the one before again. Answers the undo's body. */
async function roundTrip(body: CreateMutation): Promise<CreateMutation> {
  const before = await liveRow(body);
  await change(body);
  expect(withoutEditTime(await liveRow(body)), 'the change changed nothing').not.toEqual(withoutEditTime(before));
  const inverse = inverseOf(body, before);
  if (!('body' in inverse)) throw new Error(`no inverse: ${inverse.reason}`);
  await change(inverse.body);
  expect(withoutEditTime(await liveRow(body))).toEqual(withoutEditTime(before));
  return inverse.body;
}

const campaign = (advertiserId: string, id: string) => ({ advertiserId, target: { type: 'campaign', id } }) as const;
const adGroup = (advertiserId: string, id: string) => ({ advertiserId, target: { type: 'ad_group', id } }) as const;

describe('each reversible change, undone from the live row before it', () => {
  it('pause and activate undo each other', async () => {
    expect((await roundTrip({ ...campaign('acc_a', '100'), action: 'pause' })).action).toBe('activate');
    await change({ ...adGroup('acc_b', '301'), action: 'pause' });
    expect((await roundTrip({ ...adGroup('acc_b', '301'), action: 'activate' })).action).toBe('pause');
  });

  it('rename', async () => {
    await roundTrip({ ...adGroup('acc_a', '200'), action: 'rename', name: 'Renamed ad set' });
    await roundTrip({ ...campaign('acc_c', '400'), action: 'rename', name: 'Renamed C' });
  });

  it('set_budget: amount and type', async () => {
    await roundTrip({ ...adGroup('acc_a', '200'), action: 'set_budget', budget: { amount: 30, type: 'lifetime' } });
    await roundTrip({ ...campaign('acc_b', '300'), action: 'set_budget', budget: { amount: 125 } });
    await roundTrip({ ...campaign('acc_c', '400'), action: 'set_budget', budget: { amount: 35.5 } });
  });

  it('set_bid: strategy and amount', async () => {
    await roundTrip({ ...adGroup('acc_a', '200'), action: 'set_bid', bidStrategy: 'COST_CAP', bidAmount: 2.25 });
    await roundTrip({ ...campaign('acc_a', '100'), action: 'set_bid', bidStrategy: 'COST_CAP' });
  });
});
