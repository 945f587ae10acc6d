// What a destructive command is about to delete, in words a person recognises:
// the slug(s) it was given, and for things addressed by an opaque id (an
// Asset, a Document) the file name read from the service first. Only used
// when asking on a terminal; a failed look-up falls back to the id.
import type { CommandContext } from '../../cli/context.js';
import type { OperationCommandData, OperationInput } from './operation-data.js';
import { describeCommand, type CommandSpec } from '../../cli/registry.js';
import type { OperationId } from '../../contract/operations.js';
import { resourceEntries } from '../../contract/resources.js';
import { lineText } from '../../cli/output/sanitize.js';

/** The read that names a delete's target, and the field that holds the name (the noun's, src/contract/resources.ts). */
function namedBy(deleteId: string): { get: OperationId; field: string } | undefined {
  for (const [, r] of resourceEntries()) if (r.namedOnDelete?.delete === deleteId && r.name) return { get: r.namedOnDelete.get, field: r.name };
  return undefined;
}

/** CommandModule.describeTarget of the operation handlers. */
export async function describeTarget(ctx: CommandContext, input: OperationInput, data: OperationCommandData, spec: CommandSpec): Promise<string> {
  const base = describeCommand(spec, input);
  const named = namedBy(data.operationId);
  if (!named) return lineText(base);
  try {
    const params = Object.fromEntries(data.args.map((a) => [a.param, String(input.args[a.name] ?? '')]));
    const client = await ctx.client();
    const res: unknown = await client.callUnchecked(named.get, { params }, { signal: ctx.signal });
    const name = res !== null && typeof res === 'object' ? (res as Record<string, unknown>)[named.field] : undefined;
    return lineText(typeof name === 'string' ? `${base}: "${name}"` : base);
  } catch {
    return lineText(base);
  }
}
