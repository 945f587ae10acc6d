// The table of tools in docs/mcp.md, between its markers, written from the tools
// themselves (`npm run gen`; test/unit/mcp/docs-tools.test.ts fails when it is
// stale): a promise in the docs is a test. One row per tool, in the order
// tools/list gives them: name, toolset, the access the gate needs, what it does.
import type { ToolDef } from './tool-def.js';

export const TOOLS_BEGIN = '<!-- mcp-tools:begin (npm run gen) -->';
export const TOOLS_END = '<!-- mcp-tools:end -->';

const ACCESS_WORDS = { read: 'read', write: 'write (--allow-writes)', destructive: 'destructive (--allow-destructive)' } as const;

/** A table cell: one line, no pipe to end it early. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

export function toolTable(tools: readonly ToolDef[]): string[] {
  return [
    '| Tool | Toolset | Access | What it does |',
    '| --- | --- | --- | --- |',
    ...tools.map((t) => `| \`${t.name}\` | ${t.toolset} | ${ACCESS_WORDS[t.access]} | ${cell(t.title ?? t.annotations.title ?? t.description)} |`),
  ];
}

/** docs/mcp.md with the table between its markers written anew. */
export function mcpToolsDoc(current: string, tools: readonly ToolDef[]): string {
  const start = current.indexOf(TOOLS_BEGIN);
  const end = current.indexOf(TOOLS_END);
  if (start < 0 || end < start) throw new Error(`docs/mcp.md has lost its markers: put back ${TOOLS_BEGIN} and ${TOOLS_END}`);
  const table = [TOOLS_BEGIN, '', `${tools.length} tools.`, '', ...toolTable(tools), '', TOOLS_END];
  return current.slice(0, start) + table.join('\n') + current.slice(end + TOOLS_END.length);
}
