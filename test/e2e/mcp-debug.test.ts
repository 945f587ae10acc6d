// `adops mcp --debug`: the --debug trace of each command a tool runs in process
// reaches the server's stderr (the key masked), never stdout (the protocol on
// stdio) and never the tool's result.
import { describe, expect, it } from 'vitest';
import { mutationsWorld } from '../sandbox/mutations/world.js';
import { tempConfigDir } from '../helpers/cli.js';
import { resultJson, useMcpServer } from '../helpers/mcp-client.js';
import { TEST_FULL_KEY, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const sb = useTestSandbox({ world: mutationsWorld() });
const cfg = tempConfigDir();
const state = tempDir('adops-mcp-debug-');
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY, XDG_STATE_HOME: state });
const mcp = useMcpServer(['--debug', '--retries', '0'], env);

describe('adops mcp --debug', () => {
  it("a tool's requests are traced on stderr, with the key masked, and neither on stdout nor in the result", async () => {
    const before = mcp().stderr().length;
    const result = await mcp().client.callTool({ name: 'observe_campaigns_list_live', arguments: { advertiserId: 'acc_a', limit: 1 } });
    expect(result.isError).toBeFalsy();
    expect(resultJson(result).rows).toHaveLength(1);
    const failed = await mcp().client.callTool({ name: 'observe_campaigns_get', arguments: { advertiserId: 'acc_a', id: 'nope-404' } });
    expect(resultJson(failed).error.code).toBe('not_found');
    const traced = mcp().stderr().slice(before);
    const lines = traced.split('\n').filter((l) => l.startsWith('[debug] '));
    expect(lines.some((l) => /^\[debug\] → GET \S+\/observe\/acc_a\/campaigns\?limit=1$/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('"authorization":"Bearer REDACTED"'))).toBe(true);
    expect(lines.some((l) => l.includes('nope-404'))).toBe(true);
    expect(traced).not.toContain(TEST_FULL_KEY);
    expect(JSON.stringify([result, failed])).not.toContain('[debug]');
    expect(mcp().stdout()).not.toContain('[debug]');
    expect(mcp().stdout()).not.toContain(TEST_FULL_KEY);
  });
});
