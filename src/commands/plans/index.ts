// Definitions of the plans group: Campaign Plans and their Line Items.
import { operationCommand } from '../../cli/operation-command.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';

const plan = { slug: 'plan' };

export const planGroups: GroupSpec[] = [{ path: ['plans', 'line-items'], description: "A plan's Line Items: add, update, delete, validate, readiness, record executions" }];

export const planCommands: CommandSpec[] = [
  operationCommand({ path: ['plans', 'list'], operationId: 'listCampaignPlans', description: 'List Campaign Plans', resource: 'campaignPlan', examples: ['adops plans list', 'adops plans list --status approved'] }),
  operationCommand({ path: ['plans', 'get'], operationId: 'getCampaignPlan', description: 'Show a Campaign Plan with its Line Items', resource: 'campaignPlan', examples: ['adops plans get spring-sale'] }),
  operationCommand({
    path: ['plans', 'create'],
    operationId: 'createCampaignPlan',
    description: 'Create a Campaign Plan (amounts in whole units of its currency)',
    resource: 'campaignPlan',
    examples: ['adops plans create --slug spring-sale --name "Spring sale" --currency EUR --budget 25000 --start-date 2027-03-01 --end-date 2027-03-31', 'adops plans create --input plan.json'],
  }),
  operationCommand({
    path: ['plans', 'update'],
    operationId: 'updateCampaignPlan',
    description: 'Change a Campaign Plan (needs the revision you read; a stale one exits 5)',
    resource: 'campaignPlan',
    examples: ['adops plans update spring-sale --revision 2 --budget 30000', 'adops plans update spring-sale --revision 5 --status archived'],
  }),
  operationCommand({ path: ['plans', 'delete'], operationId: 'deleteCampaignPlan', description: 'Delete a Campaign Plan and its Line Items', resource: 'campaignPlan', examples: ['adops plans delete spring-sale --yes'] }),
  operationCommand({
    path: ['plans', 'approve'],
    operationId: 'approveCampaignPlan',
    description: 'Approve a Campaign Plan (freezes it; --revision: only the revision you reviewed)',
    resource: 'campaignPlan',
    examples: ['adops plans approve spring-sale --revision 4'],
  }),

  operationCommand({
    path: ['plans', 'line-items', 'add'],
    operationId: 'addLineItem',
    argNames: plan,
    description: 'Add a Line Item to a plan',
    resource: 'lineItem',
    examples: ['adops plans line-items add spring-sale --name "Search, brand terms" --provider provider_c --advertiser acc_123 --budget 5000 --budget-type lifetime'],
  }),
  operationCommand({
    path: ['plans', 'line-items', 'update'],
    operationId: 'updateLineItem',
    argNames: plan,
    description: 'Change a Line Item (needs the revision you read; a stale one exits 5)',
    resource: 'lineItem',
    examples: ['adops plans line-items update spring-sale li_123 --revision 2 --budget 6000'],
  }),
  operationCommand({ path: ['plans', 'line-items', 'delete'], operationId: 'deleteLineItem', argNames: plan, description: 'Delete a Line Item', resource: 'lineItem', examples: ['adops plans line-items delete spring-sale li_123 --yes'] }),
  operationCommand({
    path: ['plans', 'line-items', 'validate'],
    operationId: 'validateLineItem',
    argNames: plan,
    description: 'Validate a Line Item: the problems that keep it from being executed',
    resource: 'validation',
    examples: ['adops plans line-items validate spring-sale li_123'],
  }),
  operationCommand({
    path: ['plans', 'line-items', 'readiness'],
    operationId: 'getLineItemReadiness',
    argNames: plan,
    description: 'Check whether a Line Item is ready to execute, and what is missing',
    resource: 'readiness',
    examples: ['adops plans line-items readiness spring-sale li_123'],
  }),
  operationCommand({
    path: ['plans', 'line-items', 'record'],
    operationId: 'recordLineItemExecution',
    argNames: plan,
    description: 'Record a provider object a Line Item spawned (an execution)',
    resource: 'execution',
    examples: ['adops plans line-items record spring-sale li_123 --entity-type campaign --entity-id 120330000000001'],
  }),
];
