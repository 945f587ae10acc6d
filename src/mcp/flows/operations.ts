// The operations a flow tool performs: those its command declares (flowOperations,
// else its operationId), read from the command's own definitions so a tool and
// its command never disagree on what they send. (The groups' definitions, not the
// whole registry: the registry holds `adops mcp`, which holds these tools.)
import { assetCommands } from '../../commands/assets/index.js';
import { mutationCommands } from '../../commands/mutations/index.js';
import { observeCommands } from '../../commands/observe/index.js';
import { planCommands } from '../../commands/plans/index.js';
import type { CommandSpec } from '../../cli/registry.js';
import type { OperationId } from '../../contract/operations.js';

const FLOW_COMMANDS: readonly CommandSpec[] = [...planCommands, ...observeCommands, ...assetCommands, ...mutationCommands];

/** The operations of the commands at these paths, each once, in order. */
export function operationsOf(...paths: ReadonlyArray<readonly string[]>): OperationId[] {
  const ops = paths.flatMap((path) => {
    const spec = FLOW_COMMANDS.find((c) => c.path.join(' ') === path.join(' '));
    if (!spec) throw new Error(`flow tools: no command ${path.join(' ')}`);
    return spec.flowOperations ?? (spec.operationId ? [spec.operationId] : []);
  });
  return [...new Set(ops)];
}
