// Definitions of the plans group: Campaign Plans and their Line Items.
import { editCommand, operationCommand, tableCommand } from '../_shared/operation-command.js';
import { command } from '../../cli/command-input.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';

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
    extraOptions: [
      { flags: '--wait', description: 'poll until ready (exit 8 on timeout; exit 7 at once when it can never be: plan archived)' },
      { flags: '--timeout <seconds>', description: 'how long --wait waits (default 300)', type: 'number' },
      { flags: '--interval <seconds>', description: 'time between polls with --wait (default 2)', type: 'number' },
    ],
    load: () => import('./readiness.js'),
  }),
];
