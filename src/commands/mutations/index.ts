// Definitions of the mutations group (data only).
import { operationCommand } from '../../cli/operation-command.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';

export const mutationGroups: GroupSpec[] = [];

export const mutationCommands: CommandSpec[] = [
  operationCommand({
    path: ['mutations', 'list'],
    operationId: 'listMutations',
    description: "List the organization's history of changes, newest first",
    resource: 'mutation',
    examples: ['adops mutations list --limit 10', 'adops mutations list --state failed --all --output ndjson'],
  }),
  operationCommand({
    path: ['mutations', 'start'],
    operationId: 'createMutation',
    description: 'Start a change on an advertiser; never started twice, even if the answer is lost',
    resource: 'mutation',
    watch: true,
    load: () => import('./start.js'),
    extraOptions: [{ flags: '--idempotency-key <key>', description: 'reuse a key (default: a new UUID per run)' }],
    notes:
      'Sends an Idempotency-Key. If the answer is lost after sending, adops looks for the change in the mutation history before sending again, and says what it found.',
    examples: [
      'adops mutations start --advertiser acc_123 --action pause -f target.type=campaign -f target.id=456 --wait',
      'adops mutations start --advertiser acc_123 --action set_budget -f target.type=campaign -f target.id=456 -F budget.amount=50',
      'adops mutations start --input change.json',
    ],
  }),
  operationCommand({
    path: ['mutations', 'get'],
    operationId: 'getMutation',
    description: 'Read a mutation you started; --wait polls until it finishes',
    resource: 'mutation',
    watch: true,
    examples: ['adops mutations get mut_123', 'adops mutations get mut_123 --wait --timeout 120'],
  }),
];
