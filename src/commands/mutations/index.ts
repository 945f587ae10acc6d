// Definitions of the mutations group (data only).
import { operationCommand } from '../../cli/operation-command.js';
import type { CommandSpec } from '../../cli/registry.js';

export const mutationCommands: CommandSpec[] = [
  operationCommand({
    path: ['mutations', 'list'],
    operationId: 'listMutations',
    description: "List the organization's history of changes, newest first",
    resource: 'mutation',
    examples: ['adops mutations list --limit 10', 'adops mutations list --all --output ndjson'],
  }),
  {
    path: ['mutations', 'start'],
    description: 'Start a change on an advertiser; never started twice, even if the answer is lost',
    options: [
      { flags: '--advertiser <advertiserId>', description: 'the advertiser (acc_…) to change' },
      { flags: '--action <action>', description: 'what to do, e.g. pause, activate, rename, set_budget' },
      { flags: '-f, --field <key=value>', description: 'string body field; target.id=123 nests (repeatable)', type: 'repeat' },
      { flags: '-F, --json-field <key=value>', description: 'body field whose value is JSON, e.g. -F budget.amount=50 (repeatable)', type: 'repeat' },
      { flags: '--input <file>', description: 'request body as JSON from a file, or - for stdin; flags override its keys' },
      { flags: '--idempotency-key <key>', description: 'reuse a key (default: a new UUID per run)' },
      { flags: '--wait', description: 'poll until it finishes (exit 8 on timeout, 9 if it failed)' },
      { flags: '--timeout <seconds>', description: 'how long --wait waits (default 300)', type: 'number' },
      { flags: '--interval <seconds>', description: 'time between polls with --wait (default 2)', type: 'number' },
    ],
    notes:
      'Sends an Idempotency-Key. If the answer is lost after sending, adops looks for the change in the mutation history before sending again, and says what it found.',
    examples: [
      'adops mutations start --advertiser acc_123 --action pause -f target.type=campaign -f target.id=456 --wait',
      'adops mutations start --input change.json',
    ],
    operationId: 'createMutation',
    load: () => import('./start.js'),
  },
  operationCommand({
    path: ['mutations', 'get'],
    operationId: 'getMutation',
    description: 'Read a mutation you started; --wait polls until it finishes',
    args: [{ name: 'id', param: 'id', description: 'mutation id' }],
    resource: 'mutation',
    watch: true,
    examples: ['adops mutations get mut_123', 'adops mutations get mut_123 --wait --timeout 120'],
  }),
];
