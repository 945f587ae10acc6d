// Definitions of the assets group (data only).
import { operationCommand } from '../../cli/operation-command.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';
import { REVISION_SAFE } from '../skills/index.js';

export const assetGroups: GroupSpec[] = [];

export const assetCommands: CommandSpec[] = [
  operationCommand({
    path: ['assets', 'list'],
    operationId: 'listAssets',
    description: "List the organization's source images and videos",
    resource: 'asset',
    examples: ['adops assets list', 'adops assets list --kind video --all --output csv'],
  }),
  operationCommand({ path: ['assets', 'get'], operationId: 'getAsset', description: 'Show one Asset', resource: 'asset', examples: ['adops assets get ast_123'] }),
  operationCommand({
    path: ['assets', 'rename'],
    operationId: 'renameAsset',
    description: 'Rename an Asset (revision-safe: a rename by someone else meanwhile exits 5 unless --force)',
    resource: 'asset',
    examples: ['adops assets rename ast_123 --filename spring-hero.png', 'adops assets rename ast_123 --filename spring-hero.png --revision 2'],
    ...REVISION_SAFE,
  }),
  operationCommand({ path: ['assets', 'delete'], operationId: 'deleteAsset', description: 'Delete an Asset', resource: 'asset', examples: ['adops assets delete ast_123', 'adops assets delete ast_123 --yes --revision 3'] }),
  operationCommand({
    path: ['assets', 'register'],
    operationId: 'registerAsset',
    description: "Register an Asset to an advertiser's library",
    resource: 'assetRegistration',
    examples: ['adops assets register ast_123 --advertiser acc_123'],
  }),
  operationCommand({
    path: ['assets', 'reserve'],
    operationId: 'reserveAssetUpload',
    description: 'Reserve an Asset and get the URL to send its bytes to (step 1 of an upload; `assets upload` does all steps)',
    resource: 'asset',
    examples: ['adops assets reserve --filename hero.mp4'],
  }),
  operationCommand({
    path: ['assets', 'finalize'],
    operationId: 'finalizeAsset',
    description: 'Finalize an Asset once its bytes are sent (step 3 of an upload): checks what landed',
    resource: 'asset',
    watch: false,
    examples: ['adops assets finalize ast_123'],
  }),
];
