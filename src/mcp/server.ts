// The MCP server of `adops mcp` (#38), on the SDK's low-level Server so each tool
// carries its generated JSON Schema as is (no zod re-declaration): tools/list is
// the tools the gate offers, tools/call gates again and runs the tool, prompts are
// the organization's Skills, resources its Brands, Personas and Documents. One
// server per connection (stdio: one; HTTP: one per session), all sharing one
// tool list and one runner.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../client/json.js';
import { lineText } from '../cli/output/sanitize.js';
import { ContextReadError, getSkillPrompt, listContextResources, listSkillPrompts, readContextResource, RESOURCE_TEMPLATES } from './context-prompts.js';
import { offered, refusal, type GateOptions } from './gate.js';
import { callResult, cleaned, type CallResult } from './result.js';
import type { ToolDef, ToolEnv, ToolOutcome } from './tool-def.js';

export interface ServerSetup {
  tools: readonly ToolDef[];
  gate: GateOptions;
  run: ToolEnv['run'];
  version: string;
}

const INSTRUCTIONS =
  'adops: the Advertising Operations service as tools. Each tool runs the adops command named in its description and answers its JSON. ' +
  'Lists return one page ({rows, nextCursor}). A change (mutations_start) takes an idempotencyKey and answers how to undo it. ' +
  'Prompts are the organization’s Skills (ad-ops playbooks); resources are its Brands, Personas and Documents.';

/** A tool as tools/list shows it. */
export const listedTool = (t: ToolDef) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  annotations: t.annotations,
});

/** A failure of the tool's own code (not the command's: that is an outcome): an error result, its message through the boundary. */
const crashed = (err: unknown): ToolOutcome => ({
  ok: false,
  code: 1,
  error: { code: 'unexpected', message: lineText(err instanceof Error ? err.message : err) },
});

/** tools/call: refused when the gate says so (the tool may be called by a name it does not list), else run. */
export async function callTool(setup: ServerSetup, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallResult> {
  const tool = setup.tools.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${lineText(name)}`);
  const refused = refusal(tool, args, setup.gate);
  if (refused) return callResult({ ok: false, code: 2, error: { code: 'tool_not_offered', message: refused } });
  try {
    return callResult(await tool.call(args, { run: setup.run, signal }));
  } catch (err) {
    return callResult(crashed(err));
  }
}

/** A Context read that failed: an MCP error carrying the command's report. */
async function contextCall<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ContextReadError) throw new McpError(ErrorCode.InternalError, err.message, cleaned(err.report));
    throw err;
  }
}

export function createMcpServer(setup: ServerSetup): Server {
  const server = new Server(
    { name: 'adops', title: 'adops (Advertising Operations)', version: setup.version },
    { capabilities: { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const env = (signal: AbortSignal): ToolEnv => ({ run: setup.run, signal });
  const listed = setup.tools.filter((t) => offered(t, setup.gate)).map(listedTool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
    callTool(setup, req.params.name, isRecord(req.params.arguments) ? req.params.arguments : {}, extra.signal),
  );
  server.setRequestHandler(ListPromptsRequestSchema, (_req, extra) => contextCall(async () => ({ prompts: await listSkillPrompts(env(extra.signal)) })));
  server.setRequestHandler(GetPromptRequestSchema, (req, extra) => contextCall(() => getSkillPrompt(env(extra.signal), req.params.name)));
  server.setRequestHandler(ListResourcesRequestSchema, (_req, extra) =>
    contextCall(async () => ({ resources: await listContextResources(env(extra.signal)) })),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));
  server.setRequestHandler(ReadResourceRequestSchema, (req, extra) =>
    contextCall(async () => {
      const found = await readContextResource(env(extra.signal), req.params.uri);
      if (!found) throw new McpError(ErrorCode.InvalidParams, `no such resource: ${lineText(req.params.uri)}`);
      return { contents: [found] };
    }),
  );
  return server;
}
