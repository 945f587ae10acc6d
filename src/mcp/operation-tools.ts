// One MCP tool per operation of the table (#38), each running the adops command
// that performs it, so a tool answers what `adops <command> --output json`
// prints. The command is the registry's own for the operation, or the command
// it is an alternate of (`observe campaigns list --live ACC` reads
// listLiveCampaigns); its name is the command path joined by `_` (dashes too:
// `observe_ad_groups_list`, `observe_campaigns_list_live`). Toolset, access and
// annotations come from the operation: GET is a read, DELETE destructive, any
// other method a write (a call that archives: destructive); DELETE and a change
// sent with an Idempotency-Key are idempotent. The change tool (createMutation)
// is ./mutation-tool.ts.
import { isRecord } from '../client/json.js';
import type { CommandSpec, Registry } from '../cli/registry.js';
import type { OperationCommandData } from '../commands/_shared/operation-data.js';
import { inputsOf } from '../commands/_shared/operation-data.js';
import { OPERATIONS, type OperationDef } from '../contract/operations.js';
import { mutationTool } from './mutation-tool.js';
import { outcomeOf, usageOutcome } from './result.js';
import { argvOf, inputSchemaOf, missingArgs, type ArgvPlan } from './tool-input.js';
import type { ToolAccess, ToolAnnotations, ToolDef, Toolset } from './tool-def.js';

/** CommandSpec.data of an operation command (operation-command.ts), told apart without a cast. */
export function isOperationData(v: unknown): v is OperationCommandData {
  return typeof v === 'object' && v !== null && 'operationId' in v && 'args' in v && 'flags' in v && Array.isArray(v.args) && Array.isArray(v.flags);
}

export function toolsetOf(op: Pick<OperationDef, 'api' | 'path'>): Toolset {
  if (op.api === 'context') return op.path.startsWith('/context/campaign-plans') ? 'plans' : 'context';
  return op.api;
}

export function accessOf(op: Pick<OperationDef, 'method'>): ToolAccess {
  return op.method === 'GET' ? 'read' : op.method === 'DELETE' ? 'destructive' : 'write';
}

export function annotationsOf(op: Pick<OperationDef, 'method' | 'summary' | 'id'>): ToolAnnotations {
  if (op.method === 'GET') return { title: op.summary, readOnlyHint: true, openWorldHint: true };
  const idempotent = op.method === 'DELETE' || op.id === 'createMutation';
  return {
    title: op.summary,
    readOnlyHint: false,
    // A mutation may delete or archive (its action decides; the gate checks each call).
    destructiveHint: op.method === 'DELETE' || op.id === 'createMutation',
    idempotentHint: idempotent,
    openWorldHint: true,
  };
}

/** A change whose body archives (a Campaign Plan's `status: archived`) is destructive, whatever its method. */
export function callAccessOf(op: Pick<OperationDef, 'method'>): (args: Record<string, unknown>) => ToolAccess {
  const access = accessOf(op);
  return (args) => (access === 'write' && isRecord(args.body) && /^archived$/i.test(String(args.body.status)) ? 'destructive' : access);
}

/** The tool's name from its command path (and the alternate's flag). */
export const toolName = (path: readonly string[], flag?: string): string => [...path, ...(flag ? [flag] : [])].join('_').replace(/-/g, '_');

/** The command that performs an operation: its own, else the one it is an alternate of. */
export function commandOf(registry: Registry, op: OperationDef): { spec: CommandSpec; plan: ArgvPlan } | undefined {
  const io = inputsOf(op.id);
  const own = registry.commands.find((c) => c.operationId === op.id && isOperationData(c.data) && c.data.operationId === op.id);
  if (own && isOperationData(own.data)) return { spec: own, plan: { path: own.path, data: own.data, io, hasBody: io.body !== undefined } };
  for (const c of registry.commands) {
    const alt = isOperationData(c.data) ? c.data.alternate : undefined;
    if (alt?.operationId !== op.id || !isOperationData(c.data)) continue;
    return { spec: c, plan: { path: c.path, data: c.data, io, alternate: { flag: alt.flag, param: alt.param }, hasBody: false } };
  }
  return undefined;
}

function describe(op: OperationDef, path: readonly string[], flag: string | undefined): string {
  const cli = `adops ${path.join(' ')}${flag ? ` --${flag}` : ''}`;
  const page = op.kind === 'list' ? ' Returns one page, {rows, nextCursor}: pass nextCursor back as cursor for the next page (null: no more).' : '';
  return `${op.summary}.${page} Runs \`${cli} --output json\`.`;
}

function operationTool(registry: Registry, op: OperationDef, changesDir: string): ToolDef {
  if (op.id === 'createMutation') return mutationTool(op, annotationsOf(op), changesDir);
  const found = commandOf(registry, op);
  if (!found) throw new Error(`mcp: no command performs ${op.id}`);
  const { spec, plan } = found;
  const inputSchema = inputSchemaOf(plan.io);
  const name = toolName(spec.path, plan.alternate?.flag);
  return {
    name,
    title: op.summary,
    description: describe(op, spec.path, plan.alternate?.flag),
    inputSchema,
    annotations: annotationsOf(op),
    toolset: toolsetOf(op),
    access: accessOf(op),
    callAccess: callAccessOf(op),
    operationIds: [op.id],
    async call(args, env) {
      const missing = missingArgs(inputSchema, args);
      if (missing.length) return usageOutcome(`missing argument(s): ${missing.join(', ')}`);
      // --yes: the gate let this call through (a destructive tool is offered only with --allow-destructive).
      const { argv, stdin } = argvOf(plan, args, ['--output=json', ...(spec.destructive ? ['--yes'] : [])]);
      const run = await env.run(argv, { signal: env.signal, ...(stdin !== undefined ? { stdin } : {}) });
      return outcomeOf(run, { list: op.kind === 'list' });
    },
  };
}

/** Every operation's tool, in the table's order; `changesDir` holds the change tool's change files, journals and undo files. */
export function operationTools(registry: Registry, changesDir: string): ToolDef[] {
  return OPERATIONS.map((op) => operationTool(registry, op, changesDir));
}
