// Which tools `adops mcp` offers and which calls it lets through (#38): read-only
// unless --allow-writes; delete and archive (any DELETE, a mutation whose action
// deletes or archives) need --allow-destructive too; --toolsets chooses the
// toolsets. A tool the gate turns off is left out of tools/list AND refused when
// called by name (a client may call a name it remembers). A permission the key
// lacks is not the gate's business: the service's 403 comes back as the tool's
// error, so an agent learns why instead of missing a tool.
import { TOOLSETS, type ToolAccess, type ToolDef, type Toolset } from './tool-def.js';

export interface GateOptions {
  allowWrites: boolean;
  allowDestructive: boolean;
  /** The toolsets offered; all when absent. */
  toolsets?: readonly Toolset[];
}

const isToolset = (word: string): word is Toolset => TOOLSETS.some((t) => t === word);

/** `--toolsets observe,plans`: the toolsets, or the words that name none. */
export function parseToolsets(words: readonly string[]): { toolsets: Toolset[]; unknown: string[] } {
  const given = words.map((w) => w.trim().toLowerCase()).filter(Boolean);
  return { toolsets: [...new Set(given.filter(isToolset))], unknown: given.filter((w) => !isToolset(w)) };
}

/** Whether the server's flags allow a level of access. */
export function accessAllowed(access: ToolAccess, o: GateOptions): boolean {
  if (access === 'read') return true;
  if (access === 'write') return o.allowWrites;
  return o.allowWrites && o.allowDestructive;
}

/** Offered in tools/list: its toolset chosen and its own access allowed. */
export function offered(tool: Pick<ToolDef, 'toolset' | 'access'>, o: GateOptions): boolean {
  return (o.toolsets === undefined || o.toolsets.includes(tool.toolset)) && accessAllowed(tool.access, o);
}

/** Why a call is refused (the flag that would allow it), or undefined when it may run. */
export function refusal(tool: Pick<ToolDef, 'name' | 'toolset' | 'access' | 'callAccess'>, args: Record<string, unknown>, o: GateOptions): string | undefined {
  if (o.toolsets !== undefined && !o.toolsets.includes(tool.toolset))
    return `tool ${tool.name} is in toolset ${tool.toolset}, which this server does not offer (--toolsets ${o.toolsets.join(',')})`;
  const access = tool.callAccess?.(args) ?? tool.access;
  if (accessAllowed(access, o)) return undefined;
  return access === 'write' || !o.allowWrites
    ? `tool ${tool.name} changes something: this server is read-only (start it with --allow-writes${access === 'destructive' ? ' --allow-destructive' : ''})`
    : `tool ${tool.name} deletes or archives: start the server with --allow-destructive too`;
}
