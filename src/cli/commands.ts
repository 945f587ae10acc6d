// Every command of adops, assembled from the groups' definition files.
// Data only (plus lazy `load`s): this is what `--help` reads.
import { assetCommands } from '../commands/assets/index.js';
import { authCommands } from '../commands/auth/index.js';
import { configCommands } from '../commands/config/index.js';
import { demoCommands } from '../commands/demo/index.js';
import { miscCommands } from '../commands/misc/index.js';
import { mutationCommands } from '../commands/mutations/index.js';
import { observeCommands } from '../commands/observe/index.js';
import { sandboxCommands } from '../commands/sandbox/index.js';
import { Registry, type GroupSpec } from './registry.js';
import { TOP_LEVEL } from './top-level.js';

const GROUPS: GroupSpec[] = TOP_LEVEL.filter((t) => t.group).map((t) => ({ path: [t.name], description: t.description }));

let registry: Registry | undefined;

export function getRegistry(): Registry {
  registry ??= new Registry(GROUPS, [
    ...observeCommands,
    ...mutationCommands,
    ...assetCommands,
    ...authCommands,
    ...configCommands,
    ...sandboxCommands,
    ...miscCommands,
    ...demoCommands,
  ]);
  return registry;
}
