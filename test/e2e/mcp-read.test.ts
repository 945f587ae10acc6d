// `adops mcp` read-only (the default), through the SDK's client over stdio
// against a loopback test sandbox: what it offers, what a read tool answers (the
// same as the CLI command), that a write tool is neither offered nor run, the
// organization's Skills as prompts and its Brands as resources, and that
// neither the key nor an escape sequence from the service reaches the stream.
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { flowTools } from '../../src/mcp/flow-tools.js';
import { mutationsWorld } from '../sandbox/mutations/world.js';
import { tempConfigDir } from '../helpers/cli.js';
import { resultJson, useMcpServer } from '../helpers/mcp-client.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { TEST_FULL_KEY, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const sb = useTestSandbox({ world: mutationsWorld() });
const cfg = tempConfigDir();
const state = tempDir('adops-mcp-state-');
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY, XDG_STATE_HOME: state });
const ESC_NAME = '\x1b[31mRed\x1b[0m playbook\x1b]0;pwned\x07';
const KEY_TEXT = `paste ${TEST_FULL_KEY} here`;
// --retries 0: a request cut by another run's end would fail, not be retried away.
const mcp = useMcpServer(['--retries', '0'], env);

describe('adops mcp, read-only', () => {
  it('offers the read tools of every operation (a GET each) and no write tool', async () => {
    const { tools } = await mcp().client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('observe_campaigns_list');
    expect(names).toContain('observe_campaigns_list_live');
    expect(names).toContain('skills_get');
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    expect(names).not.toContain('mutations_start');
    expect(names).not.toContain('skills_delete');
    // …and the flows that read (src/mcp/flow-tools.ts: verify, pacing, drift, preview).
    const readFlows = flowTools({ changeDir: state }).filter((t) => t.access === 'read').length;
    expect(tools.length).toBe(OPERATIONS.filter((op) => op.method === 'GET').length + readFlows);
  });

  it('a read tool answers what `adops <the same command> --output json` prints, one page with its nextCursor', async () => {
    const result = await mcp().client.callTool({ name: 'observe_campaigns_list_live', arguments: { advertiserId: 'acc_a', limit: 1 } });
    expect(result.isError).toBeFalsy();
    const cli = await runAdopsInProcess(['observe', 'campaigns', 'list', '--live', 'acc_a', '--limit', '1', '--output', 'json'], { env: env() });
    expect(cli.code, cli.stderr).toBe(0);
    const page = resultJson(result);
    expect(page.rows).toEqual(JSON.parse(cli.stdout));
    expect(page.rows).toHaveLength(1);
    expect(page.nextCursor).toBe(/^next cursor: (\S+)$/m.exec(cli.stderr)?.[1]);
    const next = resultJson(
      await mcp().client.callTool({ name: 'observe_campaigns_list_live', arguments: { advertiserId: 'acc_a', limit: 1, cursor: page.nextCursor } }),
    );
    expect(next.rows[0].id).not.toBe(page.rows[0].id);
  });

  it("concurrent calls do not cut each other's requests (a run's end leaves the shared connections open)", async () => {
    const calls = Array.from({ length: 24 }, (_, i) =>
      mcp().client.callTool({
        name: i % 2 ? 'observe_ad_groups_list_live' : 'observe_campaigns_list_live',
        arguments: { advertiserId: ['acc_a', 'acc_b', 'acc_c', 'acc_d'][i % 4], limit: 1 },
      }),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.isError).map((r) => JSON.stringify(r))).toEqual([]);
  });

  it('a failing call is an error result with the service code, the exit code and its meaning', async () => {
    const result = await mcp().client.callTool({ name: 'observe_campaigns_get', arguments: { advertiserId: 'acc_a', id: 'nope-404' } });
    expect(result.isError).toBe(true);
    const report = resultJson(result);
    expect(report.exitCode).toBe(4);
    expect(report.exitMeaning).toMatch(/^not found/);
    expect(report.error.code).toBe('not_found');
  });

  it('a write tool is not offered, and refused when called by name (nothing sent)', async () => {
    const before = await sb.req('GET', '/context/skills', { key: TEST_FULL_KEY });
    const result = await mcp().client.callTool({ name: 'skills_create', arguments: { body: { slug: 'sneaky', name: 'Sneaky' } } });
    expect(result.isError).toBe(true);
    expect(resultJson(result).error.message).toMatch(/read-only \(start it with --allow-writes\)/);
    const after = await sb.req('GET', '/context/skills', { key: TEST_FULL_KEY });
    expect(after.body.data).toEqual(before.body.data);
    const mutation = await mcp().client.callTool({
      name: 'mutations_start',
      arguments: { body: { advertiserId: 'acc_a', action: 'pause', target: { type: 'campaign', id: '100' } } },
    });
    expect(mutation.isError).toBe(true);
  });

  it("prompts are the organization's Skills (slug, description; the body as a user message); Brands are resources", async () => {
    const made = await sb.req('POST', '/context/skills', {
      key: TEST_FULL_KEY,
      body: { slug: 'mcp-pacing', name: ESC_NAME, description: KEY_TEXT, body: '# Pacing\n\nRead \x1b[2Jinsights.' },
    });
    expect(made.status).toBe(201);
    expect((await sb.req('POST', '/context/brands', { key: TEST_FULL_KEY, body: { slug: 'mcp-brand', name: 'MCP Brand' } })).status).toBe(201);
    const { prompts } = await mcp().client.listPrompts();
    const prompt = prompts.find((p) => p.name === 'mcp-pacing');
    expect(prompt?.description).toMatch(/^Red playbook: paste \S+ here$/);
    expect(prompt?.description).not.toContain(TEST_FULL_KEY);
    const got = await mcp().client.getPrompt({ name: 'mcp-pacing' });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: '# Pacing\n\nRead insights.' } }]);
    const { resources } = await mcp().client.listResources();
    expect(resources.map((r) => r.uri)).toContain('adops://brands/mcp-brand');
    const read = await mcp().client.readResource({ uri: 'adops://brands/mcp-brand' });
    const content = read.contents[0];
    expect(content && 'text' in content ? JSON.parse(content.text).name : undefined).toBe('MCP Brand');
  });

  it('neither the key nor an escape sequence from the service is ever in the stream (a recorder on stdout), nor on stderr', async () => {
    // Read again so the skill holding the key and ESC passes through tools too.
    const listed = await mcp().client.callTool({ name: 'skills_list', arguments: {} });
    expect(resultJson(listed).rows.some((s: { slug: string }) => s.slug === 'mcp-pacing')).toBe(true);
    const stream = mcp().stdout();
    expect(stream).toContain('mcp-pacing');
    // stdout is the protocol stream alone: every line a JSON-RPC message.
    for (const line of stream.split('\n').filter(Boolean)) expect(JSON.parse(line).jsonrpc, line.slice(0, 200)).toBe('2.0');
    for (const text of [stream, mcp().stderr()]) {
      expect(text).not.toContain(TEST_FULL_KEY);
      expect(text).not.toContain('\x1b');
      expect(text).not.toMatch(/\\u001b/i);
    }
  });
});
