// Definitions of the mutations group (data only).
import { operationCommand } from '../_shared/operation-command.js';
import { inputsOf } from '../_shared/operation-data.js';
import { command } from '../../cli/command-input.js';
import type { CommandSpec, GroupSpec, OptionSpec } from '../../cli/registry.js';
import { EXIT } from '../../cli/exit-codes.js';
import { isMutationAction, MUTATION_ACTIONS, NAMED_CHANGE_KEYS, type MutationAction } from '../../contract/mutation-actions.js';
import { INTERVAL_HELP } from '../../client/poll-pace.js';

/** A change sent and waited for: 8 still running at the timeout, 9 it failed, 10 not known whether it started. */
const START_EXITS = [EXIT.waitTimeout, EXIT.operationFailed, EXIT.outcomeUnknown];

export const mutationGroups: GroupSpec[] = [];

const KEY_OPTION = {
  flags: '--idempotency-key <key>',
  description: 'reuse a key, e.g. the one a run that exited 10 printed (default: a new UUID per run)',
} as const satisfies OptionSpec;
const DRY_RUN = {
  flags: '--dry-run',
  description: 'print the request (method, path, headers without the API key, body) and send nothing',
} as const satisfies OptionSpec;
const WAIT_OPTIONS = [
  { flags: '--wait', description: 'poll until it is no longer running (exit 8 on timeout, 9 if it failed)' },
  { flags: '--timeout <seconds>', description: 'how long --wait waits (default 300)', type: 'number' },
  { flags: '--interval <seconds>', description: INTERVAL_HELP, type: 'number' },
] as const satisfies readonly OptionSpec[];
const TARGET_OPTIONS = [
  { flags: '--campaign <id>', description: 'the campaign to change (bare provider id, as Observe shows it)' },
  { flags: '--ad-group <id>', description: 'the ad group to change (bare provider id)' },
] as const satisfies readonly OptionSpec[];
const START_NOTES =
  'Sends an Idempotency-Key. If the answer is lost, adops sends the same change again with the same key (the service answers the change already started, never a second one). If that fails too it exits 10 with the key, a command to check the history and the command that retries safely.';

/** What the contract says each action does ("Set the status to PAUSED."). */
const actionText = (action: string) =>
  inputsOf('createMutation')
    .body?.variants?.shapes.find((s) => s.value === action)
    ?.description?.replace(/\.$/, '') ?? action;

const NAME = { flags: '--name <name>', description: 'the new name (1-400 characters; required)' } as const satisfies OptionSpec;
const BUDGET_AMOUNT = {
  flags: '--amount <n>',
  description: "budget in whole units of the advertiser's currency, 50 means 50.00 (required)",
  type: 'positive',
} as const satisfies OptionSpec;
const BUDGET_TYPE = {
  flags: '--type <type>',
  description: 'budget type (default: keep the current one)',
  choices: ['daily', 'lifetime'],
} as const satisfies OptionSpec;
const STRATEGY = { flags: '--strategy <word>', description: "the provider's bid strategy word, e.g. LOWEST_COST_WITH_BID_CAP" } as const satisfies OptionSpec;
const BID_AMOUNT = {
  flags: '--amount <n>',
  description: "bid cap or cost cap in whole units of the advertiser's currency",
  type: 'positive',
} as const satisfies OptionSpec;
/** The flags a named action may add; action.ts reads them all (each optional). */
type ActionExtra = typeof NAME | typeof BUDGET_AMOUNT | typeof BUDGET_TYPE | typeof STRATEGY | typeof BID_AMOUNT;

function actionCommand(action: MutationAction, { extra, examples }: NamedAction): CommandSpec {
  const { verb, destructive } = MUTATION_ACTIONS[action];
  return command({
    path: ['mutations', verb],
    description: `${actionText(action)} (action ${action}) on a campaign or ad group`,
    args: [{ name: 'advertiser', description: 'advertiser id (acc_…)', required: true }],
    options: [...TARGET_OPTIONS, ...extra, KEY_OPTION, DRY_RUN, ...WAIT_OPTIONS],
    examples,
    notes: START_NOTES,
    flowOperations: ['createMutation', 'getMutation', 'listMutations'],
    exits: START_EXITS,
    ...(destructive ? { destructive: true } : {}),
    load: async () => {
      const m = await import('./action.js');
      return { run: (ctx, input, spec) => m.run(ctx, input, spec, action) };
    },
    data: { action },
  });
}

type NamedAction = { extra: readonly ActionExtra[]; examples: string[] };

/**
 * The named command of every action (its verb and --yes are the action's entry's): keyed by the
 * contract's actions, so an action without one does not compile (the safe retry names it).
 */
const NAMED_ACTIONS: { readonly [A in MutationAction]: NamedAction } = {
  pause: { extra: [], examples: ['adops mutations pause acc_123 --campaign 456 --wait'] },
  activate: { extra: [], examples: ['adops mutations activate acc_123 --ad-group 789'] },
  archive: { extra: [], examples: ['adops mutations archive acc_123 --campaign 456'] },
  delete: { extra: [], examples: ['adops mutations delete acc_123 --campaign 456 --yes'] },
  rename: { extra: [NAME], examples: ["adops mutations rename acc_123 --campaign 456 --name 'Spring sale'"] },
  set_budget: {
    extra: [BUDGET_AMOUNT, BUDGET_TYPE],
    examples: [
      'adops mutations budget acc_123 --campaign 456 --amount 50',
      'adops mutations budget acc_123 --ad-group 789 --amount 1200 --type lifetime --wait',
      'adops mutations budget acc_123 --campaign 456 --amount 50 --dry-run',
    ],
  },
  set_bid: { extra: [STRATEGY, BID_AMOUNT], examples: ['adops mutations bid acc_123 --ad-group 789 --strategy COST_CAP --amount 2.5'] },
};

export const mutationCommands: CommandSpec[] = [
  operationCommand({
    path: ['mutations', 'start'],
    operationId: 'createMutation',
    description: 'Start any change on an advertiser (generic form); never started twice, even if the answer is lost',
    resource: 'mutation',
    watch: true,
    exits: [EXIT.outcomeUnknown],
    load: () => import('./start.js'),
    extraOptions: [KEY_OPTION, DRY_RUN],
    notes: START_NOTES,
    examples: [
      'adops mutations start --advertiser acc_123 --action pause -f target.type=campaign -f target.id=456 --wait',
      'adops mutations start --advertiser acc_123 --action set_budget -f target.type=campaign -f target.id=456 -F budget.amount=50',
      'adops mutations start --input change.json --dry-run',
    ],
  }),
  command({
    path: ['mutations', 'watch'],
    description: 'Poll a mutation you started until it finishes (same as get --wait; exit 8 still running, 9 failed)',
    args: [{ name: 'id', description: 'mutation id (mut_…)', required: true }],
    options: WAIT_OPTIONS.slice(1),
    examples: ['adops mutations watch mut_123', 'adops mutations watch mut_123 --timeout 600'],
    flowOperations: ['getMutation'],
    exits: [EXIT.waitTimeout, EXIT.operationFailed],
    load: () => import('./watch.js'),
  }),
  // In the order written above (the order of help and docs/cli.md).
  ...Object.keys(NAMED_ACTIONS)
    .filter(isMutationAction)
    .map((a) => actionCommand(a, NAMED_ACTIONS[a])),
  command({
    path: ['mutations', 'apply'],
    description: 'Apply many changes from a CSV or NDJSON file, one per row; safe to re-run after an interruption',
    args: [
      {
        name: 'file',
        description: `CSV (columns ${NAMED_CHANGE_KEYS.join(',')} or body) or NDJSON (one createMutation body per line)`,
        required: true,
      },
    ],
    options: [
      DRY_RUN,
      { flags: '--concurrency <n>', description: 'changes in flight at once, 1-16 (default 4)', type: 'int' },
      { flags: '--retry-failed', description: 'send rows whose change failed in an earlier run again, as new changes (a failed change changed nothing)' },
      { flags: '--journal <file>', description: "where each row's Idempotency-Key and mutation are recorded (default FILE.adops-journal.ndjson)" },
      { flags: '--preview', description: "read every row's target live and show its current value, the new one and the effect; sends nothing" },
      {
        flags: '--undo-file <file>',
        description: 'before the first change is sent, write the change that undoes every row (a change file itself, made for this service and key)',
      },
      { flags: '--allow-irreversible', description: 'with --undo-file: send rows that cannot be undone (delete, archive, a value not read live) all the same' },
      { flags: '--skip-unchanged', description: 'leave out rows whose target already has the new value (reported `unchanged`)' },
      { flags: '--force', description: 'apply an undo file made for another service or key' },
      ...WAIT_OPTIONS,
    ],
    notes:
      "Every row is checked before anything is sent (exit 2 naming bad lines). Each row's Idempotency-Key is written to the journal before its POST; a re-run skips rows already started and resends rows in doubt with their recorded key, so nothing is made twice. In CSV, amount is the budget for set_budget (bidAmount or amount the bid for set_bid); a body column holds a whole JSON body instead of the other columns. --preview reads every target live (no change sent) and shows row, advertiser, target, field, current, new and effect (change, no change, missing, cannot undo). --undo-file writes the inverse of every row to be sent (previous status, name, budget, bid) and syncs it before the first POST; a row with no inverse stops the run (exit 2) unless --allow-irreversible; an undo file applied to another service or key is refused (exit 2) unless --force. Summary (row, action, target, mutationId, state, error) on stdout; exit 0 only when every row succeeded (without --wait: started).",
    examples: [
      'adops mutations apply changes.csv --dry-run',
      'adops mutations apply changes.csv --concurrency 4 --wait',
      'adops mutations apply changes.ndjson --output csv > result.csv',
      'adops mutations apply changes.csv --preview',
      'adops mutations apply changes.csv --undo-file undo.csv --skip-unchanged',
    ],
    flowOperations: ['createMutation', 'getMutation', 'listLiveCampaigns', 'listLiveAdGroups'],
    exits: START_EXITS,
    load: () => import('./apply.js'),
  }),
];
