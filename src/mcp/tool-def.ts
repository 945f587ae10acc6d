// What an MCP tool of `adops mcp` is (issue #38), shared by the operation tools
// (one per operation of the table) and the flow tools (verify, pacing, drift,
// upload, change files): a name, a JSON Schema input, the MCP annotations, the
// toolset and access level that gate it, and a call that runs the matching
// adops command in process. Tools run through the CLI's own runner so a tool
// answers exactly what the command answers, with the same transport, retries,
// caps, redaction, journals and exit meanings; the server (./server.ts) turns
// the run into an MCP result.

/** The toolsets a server offers (`--toolsets observe,plans,…`), as GitHub's MCP server has. */
export const TOOLSETS = ['observe', 'plans', 'context', 'assets', 'mutations'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** read: offered always; write: with --allow-writes; destructive (delete, archive): with --allow-destructive too. */
export type ToolAccess = 'read' | 'write' | 'destructive';

/** A JSON Schema object for a tool's arguments (MCP's inputSchema: type "object"). */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  additionalProperties?: boolean;
}

/** MCP tool annotations (hints to the client; the gate is `access`). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One adops command run in process: its exit code and what it wrote. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a tool's call gets from the server. */
export interface ToolEnv {
  /**
   * Run `adops <argv…>` in this process with the server's profile, environment and transport (no terminal,
   * no prompts, `--output json` added by the caller when it wants JSON). `stdin`: the text a command reads
   * with `--input -`. The key is never passed in argv: the run resolves it from the profile or environment.
   */
  run(argv: readonly string[], opts?: { stdin?: string; signal?: AbortSignal }): Promise<CommandRun>;
  signal: AbortSignal;
}

/** What a tool returns before the server caps and wraps it: JSON text, or an error carrying the run's report. */
export type ToolOutcome = { ok: true; value: unknown; note?: string } | { ok: false; code: number; error: unknown };

export interface ToolDef {
  /** From the command path: `observe_campaigns_list`. */
  name: string;
  title?: string;
  description: string;
  inputSchema: ToolInputSchema;
  annotations: ToolAnnotations;
  toolset: Toolset;
  access: ToolAccess;
  /**
   * The access one call needs when its arguments decide it (a mutation whose action is delete or archive is
   * destructive; others are writes); `access` when absent. Checked by the gate (./gate.ts) on every call.
   */
  callAccess?(args: Record<string, unknown>): ToolAccess;
  /** The operations the tool may perform (an operation tool: its own). */
  operationIds: readonly string[];
  call(args: Record<string, unknown>, env: ToolEnv): Promise<ToolOutcome>;
}
