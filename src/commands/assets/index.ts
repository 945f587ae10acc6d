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
  operationCommand({
    path: ['assets', 'delete'],
    operationId: 'deleteAsset',
    description: 'Delete an Asset',
    args: [{ name: 'id', param: 'id', description: 'asset id' }],
    query: [{ flag: 'revision', field: 'revision', valueName: 'n', type: 'int', description: 'only if the Asset still has this revision (409 revision_mismatch otherwise; nothing deleted)' }],
    resource: 'asset',
    examples: ['adops assets delete ast_123', 'adops assets delete ast_123 --yes'],
  }),
];
