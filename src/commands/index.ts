// Every command of adops, assembled from the groups' definition files.
// Data only (plus lazy `load`s): this is what `--help` reads.
import { assetCommands, assetGroups } from './assets/index.js';
import { authCommands } from './auth/index.js';
import { brandCommands, brandGroups } from './brands/index.js';
import { configCommands } from './config/index.js';
import { demoCommands } from './demo/index.js';
import { miscCommands } from './misc/index.js';
import { mutationCommands, mutationGroups } from './mutations/index.js';
import { observeCommands, observeGroups } from './observe/index.js';
import { planCommands, planGroups } from './plans/index.js';
import { sandboxCommands } from './sandbox/index.js';
import { skillCommands, skillGroups } from './skills/index.js';
import { Registry, type GroupSpec } from '../cli/registry.js';
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
