// The CLI in process and the service's own answers against one test sandbox (useTestSandbox): the pair the
// plan tests each set up. Each call gets a config dir of its own.
import { expect } from 'vitest';
import { tempConfigDir } from './cli.js';
import { runAdopsInProcess } from './run-in-process.js';
import type { TestSandbox } from './sandbox.js';

export function cliAgainst(sb: TestSandbox) {
  const cfg = tempConfigDir();
  const cli = (args: readonly string[]) =>
    runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: sb.keys.full }, timeoutMs: 60_000 });
  // Answers read back as the rows the test asks for: JSON, so `any` (typed where read, not cast at each call).
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const r = await sb.req(method, path, { key: sb.keys.full, ...(body !== undefined ? { body } : {}) });
    expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    return r.body;
  };
  return { cfg, cli, api };
}
