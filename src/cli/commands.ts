// Every command of adops, assembled from the groups' definition files.
// Data only (plus lazy `load`s): this is what `--help` reads.
import { assetCommands, assetGroups } from '../commands/assets/index.js';
import { authCommands } from '../commands/auth/index.js';
import { brandCommands, brandGroups } from '../commands/brands/index.js';
import { configCommands } from '../commands/config/index.js';
import { demoCommands } from '../commands/demo/index.js';
import { miscCommands } from '../commands/misc/index.js';
import { mutationCommands, mutationGroups } from '../commands/mutations/index.js';
import { observeCommands, observeGroups } from '../commands/observe/index.js';
import { planCommands, planGroups } from '../commands/plans/index.js';
import { sandboxCommands } from '../commands/sandbox/index.js';
import { skillCommands, skillGroups } from '../commands/skills/index.js';
import { Registry, type GroupSpec } from './registry.js';
import { TOP_LEVEL } from './top-level.js';

const GROUPS: GroupSpec[] = [
  ...TOP_LEVEL.filter((t) => t.group).map((t) => ({ path: [t.name], description: t.description })),
  ...observeGroups,
  ...mutationGroups,
  ...skillGroups,
  ...brandGroups,
  ...planGroups,
  ...assetGroups,
];

let registry: Registry | undefined;

export function getRegistry(): Registry {
  registry ??= new Registry(GROUPS, [
    ...observeCommands,
    ...mutationCommands,
    ...skillCommands,
    ...brandCommands,
    ...planCommands,
    ...assetCommands,
    ...authCommands,
    ...configCommands,
    ...sandboxCommands,
    ...miscCommands,
    ...demoCommands,
  ]);
  return registry;
}
