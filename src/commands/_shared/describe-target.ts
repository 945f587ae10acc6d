// What a destructive command is about to delete, in words a person recognises:
// the slug(s) it was given, and for things addressed by an opaque id (an
// Asset, a Document) the file name read from the service first. Only used
// when asking on a terminal; a failed look-up falls back to the id.
import type { CommandContext } from '../../cli/context.js';
import type { OperationCommandData, OperationInput } from './operation-data.js';
import { describeCommand, type CommandSpec } from '../../cli/registry.js';
import type { OperationId } from '../../contract/operations.js';
import { lineText } from '../../cli/output/sanitize.js';

/** Delete operation -> the read that names its target, and the field that holds the name. */
const NAMED_BY: Readonly<Record<string, { get: OperationId; field: string }>> = {
  deleteAsset: { get: 'getAsset', field: 'filename' },
  deleteDocument: { get: 'getDocument', field: 'filename' },
};

/** CommandModule.describeTarget of the operation handlers. */
export async function describeTarget(ctx: CommandContext, input: OperationInput, data: OperationCommandData, spec: CommandSpec): Promise<string> {
  const base = describeCommand(spec, input);
  const named = NAMED_BY[data.operationId];
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
