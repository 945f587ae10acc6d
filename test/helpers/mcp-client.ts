// `adops mcp` (the built binary) driven by the MCP SDK's own client over stdio,
// with a recorder on the raw stream: the child runs under `sh -c '… | tee FILE'`,
// so FILE holds every byte the server wrote on stdout (the protocol stream), and
// its stderr is kept too. One server per test file (useMcpServer).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isRecord } from '../../src/client/json.js';
import { BIN, ensureBuilt, ROOT } from './cli.js';
import { perFile } from './per-file.js';
import { tempDir } from './temp.js';

export interface McpRun {
  client: Client;
  /** Every byte the server wrote on stdout so far. */
  stdout(): string;
  stderr(): string;
  close(): Promise<void>;
}

export async function startMcp(args: readonly string[], env: Record<string, string>): Promise<McpRun> {
  ensureBuilt();
  const file = join(tempDir('adops-mcp-rec-'), 'stdout.jsonl');
  let err = '';
  const transport = new StdioClientTransport({
    command: 'sh',
    args: ['-c', 'node "$@" | tee "$ADOPS_TEST_RECORD"', 'sh', BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', ADOPS_TEST_RECORD: file, ...env },
    cwd: ROOT,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const client = new Client({ name: 'adops-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stdout: () => readFileSync(file, 'utf8'),
    stderr: () => err,
    close: () => client.close(),
  };
}

/** One server for the whole file, started in beforeAll (after `env()` can be read), closed in afterAll. */
export function useMcpServer(args: readonly string[], env: () => Record<string, string>): () => McpRun {
  return perFile(
    'useMcpServer: adops mcp',
    () => startMcp(args, env()),
    (run) => run.close(),
    60_000,
  );
}

/** The JSON of a tool result's first text. */
export function resultJson(result: unknown): any {
  const first: unknown = isRecord(result) && Array.isArray(result.content) ? result.content[0] : undefined;
  return JSON.parse(isRecord(first) && typeof first.text === 'string' ? first.text : 'null');
}
