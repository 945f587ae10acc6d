// Definitions of the plans group: Campaign Plans and their Line Items.
import { editCommand, operationCommand, tableCommand } from '../_shared/operation-command.js';
import { command } from '../../cli/command-input.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';
import { PACING_OPERATIONS, VERIFY_OPERATIONS } from '../../flows/plan-check-operations.js';
import { EXIT } from '../../cli/exit-codes.js';
import { INTERVAL_HELP } from '../../client/poll-pace.js';

const plan = { slug: 'plan' };

export const planGroups: GroupSpec[] = [
  { path: ['plans', 'line-items'], description: "A plan's Line Items: add, update, edit, delete, validate, readiness, record executions" },
];

export const planCommands: CommandSpec[] = [
  editCommand(tableCommand('updateCampaignPlan'), {
    path: ['plans', 'edit'],
    description: 'Edit a draft Campaign Plan in $EDITOR (a terminal only), saved like update',
    examples: ['adops plans edit spring-sale'],
  }),
  operationCommand({
    path: ['plans', 'approve'],
    operationId: 'approveCampaignPlan',
    description: 'Approve a Campaign Plan (freezes it) at the revision you reviewed: --revision, else the one read now',
    resource: 'campaignPlan',
    examples: ['adops plans approve spring-sale', 'adops plans approve spring-sale --revision 4'],
    notes:
      "Without --revision the plan is read first and approved at that revision, so a change made after the read is not approved unseen (exit 5). A plan that does not validate exits 7 with each Line Item's problems.",
    load: () => import('./approve.js'),
  }),
  command({
    path: ['plans', 'apply'],
    description: 'Create a Campaign Plan and its Line Items from one JSON file (all or nothing)',
    args: [{ name: 'file', description: 'JSON file (or - for stdin): the plan\'s fields plus "lineItems": [ {name, provider, …}, … ]', required: true }],
    options: [],
    examples: ['adops plans apply spring-sale.json', 'cat plan.json | adops plans apply -'],
    notes:
      'Every field is checked before anything is sent. If the service refuses a Line Item, the plan just created is deleted again, so a failed apply leaves nothing behind.',
    operationId: 'createCampaignPlan',
    flowOperations: ['createCampaignPlan', 'addLineItem', 'getCampaignPlan', 'deleteCampaignPlan'],
    load: () => import('./apply.js'),
  }),
  command({
    path: ['plans', 'verify'],
    description: 'The plan against what runs: each Line Item against the entities it spawned, read live, one row per difference',
    args: [{ name: 'slug', description: 'Campaign Plan slug', required: true }],
    options: [
      { flags: '--line-item <id>', description: 'check only this Line Item' },
      { flags: '--exit-code', description: 'exit 11 when there is any row or no Line Item to verify, 0 when in sync (as git diff --exit-code)' },
      { flags: '--fix <file>', description: 'write the change file (CSV if it ends in .csv, else NDJSON) that brings what runs back to the plan' },
      { flags: '--force', description: 'with --fix, write over an existing file' },
    ],
    notes:
      'Rows: lineItemId, entityType, entityId, field, planned, live, note. Status: inside the flight (start to end date, both inclusive, today in UTC) the entity should be ACTIVE, outside it not. Budget and budget type only where the entity carries the budget (its budgetLevel); amounts only in one currency: an advertiser whose currency is unknown or differs from the plan\'s gives a "not comparable" row, never a conversion. Objective of a campaign when the Line Item names one. A Line Item without executions: "not launched"; an entity the provider no longer holds: "missing". Entities are read live per advertiser with ids= (a hundred a request, four at a time); an advertiser the service cannot read live (501, 409) is a row carrying that code. Only answers checked against the contract are compared: a Line Item the plan\'s answer breaks (an execution type or a date it does not allow) is one row "not comparable" (field plan); a live row that breaks a compared field, two live rows for one id, or an id left unanswered beside a row whose id cannot be read, is a row "not comparable" (field read) for that entity; rows of ids not asked count for nothing. A plan answer that breaks the contract outside its Line Items exits 1 (unexpected_answer). --fix FILE writes the change file `adops mutations apply FILE` sends unchanged: activate (inside the flight) or pause (outside it), and set_budget to the planned amount (and type) where the entity carries the budget in the plan\'s currency; a missing entity, an objective, a Line Item not launched and every row "not comparable" are listed on stderr, never proposed. An existing FILE is refused (exit 2) unless --force.',
    operationId: 'getCampaignPlan',
    flowOperations: VERIFY_OPERATIONS,
    exits: [EXIT.findings],
    examples: [
      'adops plans verify spring-sale',
      'adops plans verify spring-sale --line-item li_123 --exit-code --output ndjson',
      'adops plans verify spring-sale --fix fix.csv && adops mutations apply fix.csv --dry-run',
      'adops plans verify spring-sale --fix fix.ndjson --exit-code',
    ],
    load: () => import('./verify.js'),
  }),
  command({
    path: ['plans', 'pacing'],
    description: 'Spend against plan: per executed Line Item, spend to date from Insights, expected spend, pace and projected spend',
    args: [{ name: 'slug', description: 'Campaign Plan slug', required: true }],
    options: [
      { flags: '--as-of <date>', description: 'count spend to this day, YYYY-MM-DD (default today, UTC)' },
      { flags: '--band <low,high>', description: 'pace in percent that counts as on pace (default 90,110)', type: 'list' },
      { flags: '--line-item <id>', description: 'pace only this Line Item' },
      { flags: '--exit-code', description: 'exit 11 when a Line Item paces outside the band or is not comparable, or when no Line Item could be judged' },
      { flags: '--chart', description: 'on a terminal, draw cumulative spend against the ideal line under the table' },
      { flags: '--suggest <file>', description: 'write the change file of daily budgets that bring each Line Item outside the band to its planned total' },
      { flags: '--force', description: 'with --suggest, write over an existing file' },
    ],
    notes:
      "Spend to date: the sum of GET /observe/insights (by day) over the Line Item's entities from the flight's start to --as-of (or the flight's end). Expected: a lifetime budget times the elapsed share of the flight; a daily budget times the days elapsed (both ends of the flight count). Pace: spend / expected in percent. Projected: spend per elapsed day times the flight's days. An ad group or ad inside an executed campaign (or ad group) of the same Line Item counts once, in its parent. Spend in another currency than the plan's, or in none known, is never converted: the row says \"not comparable\" and has no pace. A pace rests only on answers checked against the contract: a Line Item the plan's answer breaks (a date that is not one), an Insights row that breaks it (spend sent as text) or was not asked for (another entity, level or day; one entity and day twice), or a stored parent row that cannot be read, makes the Line Item \"not comparable\" and is never counted. With --exit-code a row outside the band or not comparable exits 11, and so does a run where no Line Item could be judged (stderr says why: not launched, not started, not comparable, …); 0 only when at least one Line Item was judged, none is outside the band and none is not comparable. --suggest FILE (CSV if it ends in .csv, else NDJSON; an existing FILE is refused, exit 2, unless --force) writes, for each daily-budget Line Item outside the band, set_budget changes `adops mutations apply FILE` sends unchanged: (daily budget × flight days − spend to date) / days left after --as-of, split over its ACTIVE campaigns (or their ad groups, where the budget lives there), read live, in proportion to their current budgets, in the currency's minor units. Lifetime budgets, Line Items with nothing running, over or not judged are listed on stderr with the reason, never proposed.",
    operationId: 'getCampaignPlan',
    flowOperations: PACING_OPERATIONS,
    exits: [EXIT.findings],
    examples: [
      'adops plans pacing spring-sale',
      'adops plans pacing spring-sale --as-of 2026-09-20 --band 80,120 --exit-code',
      'adops plans pacing spring-sale --output csv > pacing.csv',
      'adops plans pacing spring-sale --chart',
      'adops plans pacing spring-sale --as-of 2026-09-20 --suggest budgets.csv',
    ],
    load: () => import('./pacing.js'),
  }),

  editCommand(tableCommand('updateLineItem'), {
    path: ['plans', 'line-items', 'edit'],
    description: "Edit a draft plan's Line Item in $EDITOR (a terminal only), saved like update",
    examples: ['adops plans line-items edit spring-sale li_123'],
  }),
  operationCommand({
    path: ['plans', 'line-items', 'validate'],
    operationId: 'validateLineItem',
    argNames: plan,
    description: 'Validate a Line Item: exits 7 with its problems when it is not valid',
    resource: 'validation',
    examples: ['adops plans line-items validate spring-sale li_123', 'adops plans line-items validate spring-sale li_123 --json || echo "fix it first"'],
    load: () => import('./validate.js'),
  }),
  operationCommand({
    path: ['plans', 'line-items', 'readiness'],
    operationId: 'getLineItemReadiness',
    argNames: plan,
    description: 'Check whether a Line Item is ready to execute: exits 7 with what is missing when not; --wait polls until it is',
    resource: 'readiness',
    examples: ['adops plans line-items readiness spring-sale li_123', 'adops plans line-items readiness spring-sale li_123 --wait --timeout 600'],
    exits: [EXIT.waitTimeout],
    extraOptions: [
      { flags: '--wait', description: 'poll until ready (exit 8 on timeout; exit 7 at once when it can never be: plan archived)' },
      { flags: '--timeout <seconds>', description: 'how long --wait waits (default 300)', type: 'number' },
      { flags: '--interval <seconds>', description: INTERVAL_HELP, type: 'number' },
    ],
    load: () => import('./readiness.js'),
  }),
];
