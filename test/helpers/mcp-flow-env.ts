// The flow tools of `adops mcp` called as the server calls them (tool.call(args, env)), with an env whose
// run() is the CLI in process against one test sandbox (cliAgainst's config dir, URL and key), and the
// sandbox's own answers beside them. `runs` records every argv a tool ran, so a test can say nothing ran.
import { expect } from 'vitest';
import { flowTools } from '../../src/mcp/flow-tools.js';
import type { ToolDef, ToolEnv, ToolOutcome } from '../../src/mcp/tool-def.js';
import { tempConfigDir } from './cli.js';
import { tempDir } from './temp.js';
import { runAdopsInProcess } from './run-in-process.js';
import type { TestSandbox } from './sandbox.js';

export function flowToolsAgainst(sb: TestSandbox) {
  const cfg = tempConfigDir();
  const runs: string[][] = [];
  const env: ToolEnv = {
    signal: new AbortController().signal,
    async run(argv, opts) {
      runs.push([...argv]);
      const r = await runAdopsInProcess(argv, {
        env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: sb.keys.full },
        timeoutMs: 90_000,
        ...(opts?.stdin === undefined ? {} : { stdin: opts.stdin }),
      });
      return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
    },
  };
  const changeDir = tempDir('mcp-flows-');
  const tools = new Map(flowTools({ changeDir }).map((t) => [t.name, t]));
  const tool = (name: string): ToolDef => {
    const t = tools.get(name);
    if (!t) throw new Error(`no flow tool ${name}`);
    return t;
  };
  const call = (name: string, args: Record<string, unknown>): Promise<ToolOutcome> => tool(name).call(args, env);
  /** A call that must succeed: its value (JSON, so `any`, typed where read). */
  const ok = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const out = await call(name, args);
    if (!out.ok) expect.fail(`${name} ${JSON.stringify(args)}: ${JSON.stringify(out.error)}`);
    return out.value;
  };
  /** A call that must fail: its exit code and error report. */
  const fails = async (name: string, args: Record<string, unknown>): Promise<{ code: number; error: any }> => {
    const out = await call(name, args);
    if (out.ok) expect.fail(`${name} ${JSON.stringify(args)} succeeded: ${JSON.stringify(out.value)}`);
    return { code: out.code, error: out.error };
  };
  return { cfg, changeDir, env, runs, tool, call, ok, fails };
}
