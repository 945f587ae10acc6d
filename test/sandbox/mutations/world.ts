// The world of the Mutations tests: one advertiser per provider with a campaign
// and an ad group in the provider's own keys and units, advertisers that are
// not connected or read-only, a second member, narrow keys, another organization.
import { minimalWorld, withAdvertiser, withKey, withMember, withOrganization } from '../../helpers/sandbox.js';
import type { WorldInput } from '../../../src/sandbox/fixtures/schema.js';

const T_A = '2026-08-01T10:00:00+0000';
const T_B = '2026-08-01 10:00:00';
const T_D = '2026-08-01T10:00:00Z';

export function mutationsWorld(): WorldInput {
  let w = withOrganization(minimalWorld(), 'org_other');
  w = withAdvertiser(w, {
    id: 'acc_a',
    provider: 'provider_a',
    campaigns: [
      {
        id: '100',
        name: 'A campaign',
        status: 'ACTIVE',
        daily_budget: '5000',
        bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
        created_time: T_A,
        updated_time: T_A,
        internal_note: 'not requested by the service',
      },
      { id: '101', name: 'A ad-set budgets', status: 'ACTIVE', created_time: T_A, updated_time: T_A },
    ],
    adGroups: [
      {
        id: '200',
        name: 'A ad set',
        campaign_id: '101',
        status: 'ACTIVE',
        daily_budget: '2000',
        bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
        bid_amount: '150',
        created_time: T_A,
        updated_time: T_A,
      },
    ],
  } as never);
  w = withAdvertiser(w, {
    id: 'acc_b',
    provider: 'provider_b',
    campaigns: [
      {
        campaign_id: '300',
        campaign_name: 'B campaign',
        budget_mode: 'BUDGET_MODE_DAY',
        budget: 100,
        budget_optimize_on: true,
        operation_status: 'ENABLE',
        create_time: T_B,
        modify_time: T_B,
      },
    ],
    adGroups: [{ adgroup_id: '301', campaign_id: '300', adgroup_name: 'B ad group', operation_status: 'ENABLE', create_time: T_B, modify_time: T_B }],
  } as never);
  w = withAdvertiser(w, {
    id: 'acc_c',
    provider: 'provider_c',
    campaigns: [{ id: '400', name: 'C campaign', status: 'ENABLED', budgetAmountMicros: 20_000_000 }],
    adGroups: [{ id: '401', campaignId: '400', name: 'C ad group', status: 'ENABLED' }],
  } as never);
  w = withAdvertiser(w, {
    id: 'acc_d',
    provider: 'provider_d',
    campaigns: [{ id: 'camp-d', name: 'D campaign', state: 'active', budget: { amount: '50.00', period: 'daily' }, created_at: T_D, updated_at: T_D }],
    adGroups: [{ id: 'grp-d', campaign_id: 'camp-d', name: 'D ad group', state: 'active', created_at: T_D, updated_at: T_D }],
  } as never);
  w = withAdvertiser(w, { id: 'acc_jpy', provider: 'provider_a', currency: 'JPY' });
  w = withAdvertiser(w, { id: 'acc_nc', provider: 'provider_b', connection: 'not_connected' });
  w = withAdvertiser(w, { id: 'acc_ro', provider: 'provider_c', connection: 'no_write_access' });
  w = withAdvertiser(w, { id: 'acc_other', organization: 'org_other' });
  w = withMember(w, { id: 'mem_second' });
  w = withKey(w, { label: 'second', key: 'acr_test_second_0001', member: 'mem_second' });
  w = withKey(w, { label: 'owner-2', key: 'acr_test_owner2_0001' });
  w = withKey(w, { label: 'read-only', key: 'acr_test_mutread_0001', permissions: ['mutation:read'] });
  w = withKey(w, { label: 'write-only', key: 'acr_test_mutwrite_0001', permissions: ['mutation:write'] });
  return w;
}
