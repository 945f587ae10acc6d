// The operations a flow tool performs: those its command declares (flowOperations,
// else its operationId), read from the registry so a tool and its command never
// disagree on what they send.
import { getRegistry } from '../../commands/index.js';
import type { OperationId } from '../../contract/operations.js';

/** The operations of the commands at these paths, each once, in order. */
export function operationsOf(...paths: ReadonlyArray<readonly string[]>): OperationId[] {
  const registry = getRegistry();
  const ops = paths.flatMap((path) => {
    const spec = registry.find(path).command;
    if (!spec || spec.path.join(' ') !== path.join(' ')) throw new Error(`flow tools: no command ${path.join(' ')}`);
    return spec.flowOperations ?? (spec.operationId ? [spec.operationId] : []);
  });
  return [...new Set(ops)];
}
