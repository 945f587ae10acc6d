// `adops mcp` on stdio: stdin and stdout are the protocol stream (nothing else
// writes to stdout: every run's output is captured, notes go to stderr). It
// serves until the client closes stdin or the process is interrupted.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { createMcpServer, type ServerSetup } from './server.js';

export async function serveStdio(setup: ServerSetup, io: { stdin: Readable; stdout: Writable; signal: AbortSignal }): Promise<void> {
  const server = createMcpServer(setup);
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(transport);
  const close = () => void server.close();
  io.stdin.once('end', close);
  io.signal.addEventListener('abort', close, { once: true });
  await closed;
  io.stdin.off('end', close);
  io.signal.removeEventListener('abort', close);
}
