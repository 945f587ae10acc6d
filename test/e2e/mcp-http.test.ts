// `adops mcp --http HOST:PORT` (Streamable HTTP) driven by the SDK's own
// StreamableHTTPClientTransport: one line on stderr says where it listens, a
// session lists and calls tools as over stdio, and a request naming another
// Host (DNS rebinding) or Origin is refused before any tool runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mutationsWorld } from '../sandbox/mutations/world.js';
import { baseEnv, BIN, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { resultJson } from '../helpers/mcp-client.js';
import { useTestSandbox } from '../helpers/sandbox.js';

const sb = useTestSandbox({ world: mutationsWorld() });
const cfg = tempConfigDir();
const NARROW_KEY = 'acr_test_mutread_0001';
let child: ChildProcess;
let url: URL;
let stderr = '';

beforeAll(async () => {
  ensureBuilt();
  child = spawn(process.execPath, [BIN, 'mcp', '--http', '127.0.0.1:0'], {
    cwd: ROOT,
    // A key with mutation:read only: a tool it may not use is still offered, and answers the service's 403.
    env: baseEnv({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: NARROW_KEY }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      const m = /^mcp listening on (http:\/\/\S+)$/m.exec(stderr);
      if (m) resolve(new URL(m[1]!));
    });
    child.on('close', (code) => reject(new Error(`adops mcp --http exited ${code}: ${stderr}`)));
  });
}, 60_000);

afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

/** A raw POST of an initialize with the given headers: its status. */
function rawInitialize(headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('adops mcp --http', () => {
  it('prints where it listens (loopback, /mcp) and serves a session through the SDK client', async () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/mcp');
    expect(stderr).not.toContain(NARROW_KEY);
    const client = new Client({ name: 'adops-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('observe_campaigns_list_live');
    const page = resultJson(await client.callTool({ name: 'mutations_list', arguments: { limit: 1 } }));
    expect(Array.isArray(page.rows)).toBe(true);
    // Not hidden for want of a permission: called, it answers the service's 403 with its exit code.
    const forbidden = await client.callTool({ name: 'observe_campaigns_list_live', arguments: { advertiserId: 'acc_a', limit: 1 } });
    expect(forbidden.isError).toBe(true);
    expect(resultJson(forbidden)).toMatchObject({ exitCode: 3, error: { status: 403 } });
    await client.close();
  });

  it('refuses a Host header that is not the bound address (DNS rebinding) and a foreign Origin: 403', async () => {
    expect(await rawInitialize({ host: `evil.example:${url.port}` })).toBe(403);
    expect(await rawInitialize({ origin: 'http://evil.example' })).toBe(403);
    // The same request with the bound host and no foreign origin is served (the refusals above are the check's).
    expect(await rawInitialize({})).toBe(200);
  });

  it('stops on SIGTERM, sessions and socket closed', async () => {
    const client = new Client({ name: 'adops-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    await client.close().catch(() => undefined);
  });
});
