// Every command of adops, assembled from the groups' definition files.
// Data only (plus lazy `load`s): this is what `--help` reads.
import { assetCommands, assetGroups } from './assets/index.js';
import { authCommands } from './auth/index.js';
import { brandCommands, brandGroups } from './brands/index.js';
import { configCommands } from './config/index.js';
import { demoCommands } from './demo/index.js';
import { mcpCommands } from './mcp/index.js';
import { miscCommands } from './misc/index.js';
import { mutationCommands, mutationGroups } from './mutations/index.js';
import { observeCommands, observeGroups } from './observe/index.js';
import { planCommands, planGroups } from './plans/index.js';
import { sandboxCommands } from './sandbox/index.js';
import { skillCommands, skillGroups } from './skills/index.js';
import { allTableCommands, tableCommands } from './_shared/operation-command.js';
import { Registry, type CommandSpec, type GroupSpec } from '../cli/registry.js';
import { TOP_LEVEL } from '../cli/top-level.js';

const GROUPS: GroupSpec[] = [
  ...TOP_LEVEL.filter((t) => t.group).map((t) => ({ path: [t.name], description: t.description })),
  ...observeGroups,
  ...mutationGroups,
  ...skillGroups,
  ...brandGroups,
  ...planGroups,
  ...assetGroups,
];

/** The groups that operations sit in, each with the commands its file holds beside the table's. */
const OPERATION_GROUPS: ReadonlyArray<readonly [string, readonly CommandSpec[]]> = [
  ['observe', observeCommands],
  ['mutations', mutationCommands],
  ['skills', skillCommands],
  ['brands', brandCommands],
  ['plans', planCommands],
  ['assets', assetCommands],
];

let registry: Registry | undefined;

export function getRegistry(): Registry {
  registry ??= buildRegistry();
  return registry;
}

function buildRegistry(): Registry {
  // Each group: its plain operation commands, built from the operation table, then the ones its file holds.
  const operationCommands = OPERATION_GROUPS.flatMap(([group, own]) => [...tableCommands(group), ...own]);
  const placed = new Set(operationCommands);
  const unplaced = allTableCommands().filter((c) => !placed.has(c));
  if (unplaced.length) throw new Error(`operation commands outside the groups: ${unplaced.map((c) => c.path.join(' ')).join(', ')}`);
  return new Registry(GROUPS, [...operationCommands, ...authCommands, ...configCommands, ...sandboxCommands, ...miscCommands, ...mcpCommands, ...demoCommands]);
}
