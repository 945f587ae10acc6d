// `adops mcp --allow-writes --allow-destructive` through the SDK's client over
// stdio: every operation is a tool; a change is journaled as `mutations apply`
// journals it, sent once however often it is called with the same
// idempotency key, and its result names the change that undoes it, which
// restores the field.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getRegistry } from '../../src/commands/index.js';
import { OPERATIONS } from '../../src/contract/operations.js';
import { flowTools } from '../../src/mcp/flow-tools.js';
import { operationTools } from '../../src/mcp/operation-tools.js';
import { mutationsWorld } from '../sandbox/mutations/world.js';
import { tempConfigDir } from '../helpers/cli.js';
import { resultJson, useMcpServer } from '../helpers/mcp-client.js';
import { TEST_FULL_KEY, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const sb = useTestSandbox({ world: mutationsWorld() });
const cfg = tempConfigDir();
const state = tempDir('adops-mcp-state-');
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY, XDG_STATE_HOME: state });
const mcp = useMcpServer(['--allow-writes', '--allow-destructive'], env);

const liveName = async (id: string): Promise<string> => {
  const res = await sb.req('GET', '/observe/acc_a/campaigns', { key: TEST_FULL_KEY, query: { ids: id } });
  return res.body.data[0].name;
};
const renames = async (id: string, name: string): Promise<number> => {
  const res = await sb.req('GET', '/mutations', { key: TEST_FULL_KEY, query: { limit: 500 } });
  return res.body.data.filter((m: any) => m.target?.id === id && m.changes?.name === name).length;
};

describe('adops mcp --allow-writes --allow-destructive', () => {
  it('offers one tool per operation of the table (64) plus the flow tools, each name once', async () => {
    const { tools } = await mcp().client.listTools();
    const expected = [...operationTools(getRegistry(), state), ...flowTools()].map((t) => t.name);
    expect(OPERATIONS).toHaveLength(64);
    expect(new Set(expected).size).toBe(OPERATIONS.length + flowTools().length);
    expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort());
    const start = tools.find((t) => t.name === 'mutations_start');
    expect(start?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(tools.find((t) => t.name === 'skills_delete')?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === 'skills_create')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('a change is journaled, sent once when called twice with one key, and its undo restores the field', async () => {
    const before = await liveName('100');
    const args = {
      body: { advertiserId: 'acc_a', action: 'rename', target: { type: 'campaign', id: '100' }, name: 'Renamed by an agent' },
      idempotencyKey: 'agent-key-1',
      wait: true,
    };
    const first = await mcp().client.callTool({ name: 'mutations_start', arguments: args });
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    const done = resultJson(first);
    expect(done.idempotencyKey).toBe('agent-key-1');
    expect(done.mutationId).toMatch(/^mut_/);
    expect(await liveName('100')).toBe('Renamed by an agent');
    // Journaled as `mutations apply` journals: the row's key before its POST, its mutation after.
    expect(existsSync(done.journal)).toBe(true);
    expect(readFileSync(done.journal, 'utf8')).toContain(done.mutationId);

    const again = resultJson(await mcp().client.callTool({ name: 'mutations_start', arguments: args }));
    expect(again.mutationId).toBe(done.mutationId);
    expect(await renames('100', 'Renamed by an agent')).toBe(1);

    // The undo was read live before the change: the previous name.
    expect(done.undo.tool).toBe('mutations_start');
    expect(done.undo.arguments.body).toMatchObject({ action: 'rename', name: before, target: { type: 'campaign', id: '100' } });
    const undone = await mcp().client.callTool({ name: 'mutations_start', arguments: { ...done.undo.arguments, wait: true } });
    expect(undone.isError, JSON.stringify(undone)).toBeFalsy();
    expect(await liveName('100')).toBe(before);
  });

  it('one key names one change: the same key with another body is refused and nothing is sent', async () => {
    const body = { advertiserId: 'acc_a', action: 'rename', target: { type: 'campaign', id: '101' }, name: 'First' };
    expect((await mcp().client.callTool({ name: 'mutations_start', arguments: { body, idempotencyKey: 'agent-key-2', wait: true } })).isError).toBeFalsy();
    const other = await mcp().client.callTool({ name: 'mutations_start', arguments: { body: { ...body, name: 'Second' }, idempotencyKey: 'agent-key-2' } });
    expect(other.isError).toBe(true);
    expect(resultJson(other).error.message).toMatch(/was used for another change; nothing was sent/);
    expect(await renames('101', 'Second')).toBe(0);
  });

  it('a write tool writes (a Skill made and deleted through tools, the delete confirmed by the gate, not a prompt)', async () => {
    const made = await mcp().client.callTool({ name: 'skills_create', arguments: { body: { slug: 'agent-made', name: 'Agent made' } } });
    expect(made.isError, JSON.stringify(made)).toBeFalsy();
    expect(resultJson(made).slug).toBe('agent-made');
    const gone = await mcp().client.callTool({ name: 'skills_delete', arguments: { slug: 'agent-made' } });
    expect(gone.isError, JSON.stringify(gone)).toBeFalsy();
    expect((await sb.req('GET', '/context/skills/agent-made', { key: TEST_FULL_KEY })).status).toBe(404);
  });
});
