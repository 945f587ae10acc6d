// The fixture the cli-*.test.ts files share (once per file: vitest gives each
// file its own copy of this module): a sandbox child started with `--login`
// into a fresh config dir, and a recording stub server for the cases a real
// service cannot produce on demand (hangs, 500s, streaming pages).
import { afterAll, beforeAll } from 'vitest';
import { ensureBuilt, runAdops, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';
import { startStub, type Stub } from './stub-server.js';

export let sandbox: SandboxChild;
export let stub: Stub;
/** Logged in through `sandbox serve --login`. */
export let cfg: string;
export const envFor = (extra: Record<string, string | undefined> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ...extra });
export const run = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string) =>
  runAdops(args, { env: envFor(extra), ...(stdin !== undefined ? { stdin } : {}) });

export function useLoggedInSandbox(): void {
  beforeAll(async () => {
    ensureBuilt();
    cfg = tempConfigDir();
    [sandbox, stub] = await Promise.all([startSandboxChild(['--login'], { ADOPS_CONFIG_DIR: cfg }), startStub()]);
  }, 60_000);

  afterAll(async () => {
    await stub?.close();
    await sandbox?.stop();
  });
}
