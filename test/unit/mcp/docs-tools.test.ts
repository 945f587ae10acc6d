// docs/mcp.md promises a list of tools, what the README says an agent is offered and how the flows run:
// each promise is checked against the code here. The table is written by `npm run gen` (src/mcp/tool-table.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRegistry } from '../../../src/commands/index.js';
import { flowTools } from '../../../src/mcp/flow-tools.js';
import { operationTools } from '../../../src/mcp/operation-tools.js';
import { mcpToolsDoc, TOOLS_BEGIN, TOOLS_END } from '../../../src/mcp/tool-table.js';
import { TOOLSETS } from '../../../src/mcp/tool-def.js';
import { ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

const doc = readFileSync(join(ROOT, 'docs/mcp.md'), 'utf8');
const dir = tempDir('mcp-doc-tools-');
// As `adops mcp` builds them (src/commands/mcp/serve.ts): the operation tools, then the flows.
const tools = [...operationTools(getRegistry(), dir), ...flowTools({ changeDir: dir })];
const tableNames = (text: string) => [...text.slice(text.indexOf(TOOLS_BEGIN), text.indexOf(TOOLS_END)).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);

describe('docs/mcp.md', () => {
  it('lists every tool the server builds, each once, with its toolset and access (npm run gen writes it)', () => {
    expect(doc, 'docs/mcp.md is stale: run `npm run gen`').toBe(mcpToolsDoc(doc, tools));
    expect(tableNames(doc)).toEqual(tools.map((t) => t.name));
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it('its flow table names each flow tool, and the toolsets it lists are the server’s', () => {
    const flows = doc.slice(doc.indexOf('## The flow tools'), doc.indexOf('## Every tool'));
    expect([...flows.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]).sort()).toEqual(
      flowTools({ changeDir: dir })
        .map((t) => t.name)
        .sort(),
    );
    expect(doc).toContain(`--toolsets ${TOOLSETS.join(',')}`);
  });

  it('never shows a key in args', () => {
    for (const block of doc.matchAll(/```(?:json|sh)\n([\s\S]*?)```/g)) expect(block[1]).not.toMatch(/"args":[^\]]*acr_|adops mcp[^\n]*acr_/);
  });
});
