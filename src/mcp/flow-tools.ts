// The flow tools of `adops mcp` (issue #38): verify, pacing, drift, upload by
// path, change-file preview/apply/undo. Written in the mcpflow branch; until it
// lands the server offers the operation tools only.
import type { ToolDef } from './tool-def.js';

export function flowTools(): ToolDef[] {
  return [];
}
