// `adops mcp`: the tools (one per operation, plus the flows), the gate from the
// flags, one runner for every tool call, then the server on stdio or HTTP.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CommandContext, CommandInput } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { Registry } from '../../cli/registry.js';
import { flowTools } from '../../mcp/flow-tools.js';
import { parseToolsets, type GateOptions } from '../../mcp/gate.js';
import { parseAddress, serveHttp } from '../../mcp/http.js';
import { operationTools } from '../../mcp/operation-tools.js';
import { commandRunner } from '../../mcp/run-command.js';
import type { ServerSetup } from '../../mcp/server.js';
import { serveStdio } from '../../mcp/stdio.js';

interface McpOptions {
  http?: string;
  allowWrites?: boolean;
  allowDestructive?: boolean;
  toolsets?: string[];
}

/** Where the change tool keeps its change files, journals and undo files: $XDG_STATE_HOME/adops/mcp-changes. */
export function changesDir(env: Record<string, string | undefined>): string {
  return join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'adops', 'mcp-changes');
}

function gateOf(o: McpOptions): GateOptions {
  if (o.allowDestructive && !o.allowWrites) throw new UsageError('--allow-destructive needs --allow-writes', 'pass both to offer deletes and archives');
  const parsed = o.toolsets ? parseToolsets(o.toolsets) : undefined;
  if (parsed?.unknown.length)
    throw new UsageError(`--toolsets: unknown toolset ${parsed.unknown.join(', ')}`, 'toolsets: observe, plans, context, assets, mutations');
  return { allowWrites: o.allowWrites === true, allowDestructive: o.allowDestructive === true, ...(parsed ? { toolsets: parsed.toolsets } : {}) };
}

const accessWords = (g: GateOptions) => (g.allowDestructive ? 'reads, writes and deletes' : g.allowWrites ? 'reads and writes' : 'read-only');

export async function run(ctx: CommandContext, input: CommandInput<McpOptions>): Promise<number> {
  const gate = gateOf(input.opts);
  const address = input.opts.http === undefined ? undefined : parseAddress(input.opts.http);
  const registry = ctx.registry;
  if (!(registry instanceof Registry)) throw new Error('adops mcp needs the whole command registry');
  if (!ctx.auth().apiKey) ctx.warn('no API key: every tool will answer exit 3 until ADOPS_API_KEY or a profile holds one');
  const tools = [...operationTools(registry, changesDir(ctx.env)), ...flowTools({ changeDir: changesDir(ctx.env) })];
  const setup: ServerSetup = {
    tools,
    gate,
    run: commandRunner({ registry, env: ctx.env, globals: ctx.globals, signal: ctx.signal, trace: ctx.debug ? ctx.trace : undefined }),
    version: ctx.version,
  };
  if (!address) {
    ctx.note(`mcp: serving on stdio (${accessWords(gate)})`);
    await serveStdio(setup, { stdin: ctx.io.stdin, stdout: ctx.io.stdout, signal: ctx.signal });
    return 0;
  }
  ctx.note(`mcp: Streamable HTTP (${accessWords(gate)})`);
  await serveHttp(setup, address, { signal: ctx.signal, onListening: (url) => ctx.note(`mcp listening on ${url}`) });
  return 0;
}
