// The flow tools through `adops mcp` itself (the built binary, the SDK's own client over stdio) against a
// test sandbox: offered as their access allows (read flows read-only; apply/undo/upload with --allow-writes,
// refused by name without), a flow's judgement as the tool's JSON, and "nothing judged" or a service error
// as an MCP tool error (isError) carrying the code and exit meaning.
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { resultJson, useMcpServer } from '../helpers/mcp-client.js';
import { useTestSandbox } from '../helpers/sandbox.js';
import { generatedWorld } from '../helpers/plan-world.js';
import { tempDir } from '../helpers/temp.js';

const A = 'acc_mcp_flows_srv';

const world = () => generatedWorld([{ id: A, currency: 'USD' }]);

const sb = useTestSandbox({ world: world() });
const cfg = tempConfigDir();
const state = tempDir('adops-mcp-flows-state-');
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: sb.keys.full, XDG_STATE_HOME: state });
const readOnly = useMcpServer(['--toolsets', 'observe,plans,mutations,assets'], env);
const FLOWS = ['plans_verify', 'plans_pacing', 'observe_drift', 'assets_upload', 'mutations_preview', 'mutations_apply', 'mutations_undo'];

describe('flow tools in adops mcp', () => {
  it('read-only: the read flows are offered, apply/undo/upload neither offered nor run when called by name', async () => {
    const { tools } = await readOnly().client.listTools();
    const flows = tools.filter((t) => FLOWS.includes(t.name));
    expect(flows.map((t) => t.name).sort()).toEqual(['mutations_preview', 'observe_drift', 'plans_pacing', 'plans_verify']);
    for (const t of flows) expect(t.annotations).toMatchObject({ readOnlyHint: true });
    const refused = await readOnly().client.callTool({
      name: 'mutations_apply',
      arguments: { changes: [{ advertiserId: A, action: 'pause', target: { type: 'campaign', id: '1' } }] },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/--allow-writes/);
  });

  it('observe_drift answers its judgement as JSON; a plan that does not exist is a tool error with the service code and exit 4', async () => {
    const drift = await readOnly().client.callTool({ name: 'observe_drift', arguments: { advertiser: A, compare: ['status'] } });
    expect(drift.isError, JSON.stringify(drift.content)).toBeFalsy();
    expect(resultJson(drift)).toMatchObject({ inSync: expect.any(Boolean), differences: expect.any(Array) });

    const missing = await readOnly().client.callTool({ name: 'plans_verify', arguments: { slug: 'no-such-plan' } });
    expect(missing.isError).toBe(true);
    expect(resultJson(missing)).toMatchObject({ error: { code: 'not_found', status: 404 }, exitCode: 4 });
    expect(readOnly().stdout()).not.toContain(sb.keys.full);
  });
});
