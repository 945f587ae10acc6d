// The flow tools of `adops mcp` (issue #38): the CLI's multi-step commands as
// MCP tools, each running its command in process (ToolEnv.run) with --output
// json: plan verify and pacing, drift, an upload by path, and the change-file
// loop preview → apply → undo. The server (./server.ts) gates them by toolset
// and access as it gates the operation tools.
import { join } from 'node:path';
import { configDir } from '../state/config-store.js';
import type { ToolDef } from './tool-def.js';
import { ChangeDir } from './flows/change-dir.js';
import { changeTools } from './flows/changes.js';
import { checkTools } from './flows/plan-checks.js';
import { uploadTools } from './flows/upload.js';

export interface FlowToolOptions {
  /** Where change files, their journals and undo files are written (default: `mcp` under the config dir). */
  changeDir?: string;
}

export function flowTools(opts: FlowToolOptions = {}): ToolDef[] {
  const dir = new ChangeDir(opts.changeDir ?? join(configDir(process.env), 'mcp'));
  return [...checkTools(dir), ...uploadTools(), ...changeTools(dir)];
}
