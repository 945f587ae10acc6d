// `adops mcp` (issue #38): the contract as Model Context Protocol tools, the
// organization's Skills as prompts, its Context as resources. Data only: the
// server (src/mcp/) loads when the command runs, never for --help or another command.
import { command } from '../../cli/command-input.js';
import type { CommandSpec } from '../../cli/registry.js';
import { TOOLSETS } from '../../mcp/tool-def.js';

export const mcpCommands: CommandSpec[] = [
  command({
    path: ['mcp'],
    description: 'Serve the contract as MCP tools for agents (stdio, or Streamable HTTP with --http)',
    options: [
      { flags: '--http <address>', description: 'serve Streamable HTTP on [HOST:]PORT (host default 127.0.0.1) at /mcp instead of stdio' },
      { flags: '--allow-writes', description: 'offer the tools that change something (default: read-only)' },
      { flags: '--allow-destructive', description: 'with --allow-writes: offer deletes and archives too' },
      { flags: '--toolsets <list>', description: `offer only these toolsets (${TOOLSETS.join(',')}; default: all)`, type: 'list' },
    ],
    examples: [
      'adops mcp',
      'adops mcp --allow-writes --toolsets observe,mutations',
      'adops mcp --http 8765',
      'ADOPS_API_KEY=acr_… adops mcp --profile staging',
    ],
    notes:
      'On stdio, stdout is the protocol stream: notes go to stderr. With --http it prints `mcp listening on http://HOST:PORT/mcp` on stderr, checks the Host and Origin headers (DNS-rebinding protection) and keeps one session per client. Every tool runs the adops command of its operation in this process, with the profile, key, transport, retries, caps and redaction this command was started with; the key comes from the profile or ADOPS_API_KEY, never from a tool argument. Read-only by default; a change a tool makes is journaled and its result says how to undo it.',
    load: () => import('./serve.js'),
  }),
];
