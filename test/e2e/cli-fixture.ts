// The fixture the cli-*.test.ts files share (once per file: vitest gives each
// file its own copy of this module): the demo sandbox, logged in (`--login`)
// into a fresh config dir, and a recording stub server for the cases a real
// service cannot produce on demand (hangs, 500s, streaming pages). The sandbox
// runs in this process (helpers/demo-sandbox.ts) unless the file tests the
// serve command itself (`{ child: true }`: its stderr, its exit on a signal).
import { afterAll, beforeAll } from 'vitest';
import { ensureBuilt, startSandboxChild, tempConfigDir, type SandboxChild } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { startStub, type Stub } from './stub-server.js';

export let sandbox: DemoSandbox;
/** `adops sandbox serve --login` as a child process: set only under useLoggedInSandbox({ child: true }). */
export let child: SandboxChild;
export let stub: Stub;
/** Logged in through `sandbox serve --login`. */
export let cfg: string;
export const envFor = (extra: Record<string, string | undefined> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ...extra });
/**
 * A command run in this process (helpers/run-in-process.ts: the binary's own entry decision, piped streams, exit code):
 * a spawned `node bin/adops.js` costs ~0.15-0.3 s of CPU, this milliseconds. What only a process shows (signals, a
 * pty, a pipe's reader leaving) the files spawn themselves.
 */
export const run = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string) =>
  runAdopsInProcess(args, { env: envFor(extra), ...(stdin !== undefined ? { stdin } : {}) });

export function useLoggedInSandbox(opts: { child?: boolean } = {}): void {
  beforeAll(async () => {
    ensureBuilt();
    cfg = tempConfigDir();
    const service = async (): Promise<DemoSandbox> => {
      if (!opts.child) return startDemoSandbox({ login: { configDir: cfg } });
      child = await startSandboxChild(['--login'], { ADOPS_CONFIG_DIR: cfg });
      return { url: child.url, stop: async () => void (await child.stop()) };
    };
    [sandbox, stub] = await Promise.all([service(), startStub()]);
  }, 60_000);

  afterAll(async () => {
    await stub?.close();
    await sandbox?.stop();
  });
}
