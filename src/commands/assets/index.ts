// Definitions of the assets group (data only).
import { operationCommand } from '../../cli/operation-command.js';
import type { CommandSpec } from '../../cli/registry.js';

export const assetCommands: CommandSpec[] = [
  operationCommand({
    path: ['assets', 'list'],
    operationId: 'listAssets',
    description: "List the organization's source images and videos",
    resource: 'asset',
    examples: ['adops assets list', 'adops assets list --all --output csv'],
  }),
  operationCommand({
    path: ['assets', 'get'],
    operationId: 'getAsset',
    description: 'Show one Asset',
    args: [{ name: 'id', param: 'id', description: 'asset id' }],
    resource: 'asset',
    examples: ['adops assets get ast_123'],
  }),
];
