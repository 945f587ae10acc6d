// The service `adops sandbox serve --port 0 --data :memory: --ingest-every 0` gives
// (helpers/cli.ts startSandboxChild), started in this process: the same bootSandbox,
// the same prebuilt demo world (dist/bundle/demo-world.db, which the child's bundle
// takes), the system clock with its ticker, ingestion only on POST /_sandbox/ingest
// unless asked. A child costs ~3-4 s of CPU to load and build the sandbox; here, in a
// worker that has the modules loaded (e2e-shared), it costs milliseconds (#37).
//
// Files whose claim is about the serve command itself (its flags, its output, its
// exit on a signal) or that kill the service's process keep startSandboxChild.
import { bootSandbox } from '../../src/sandbox/index.js';
import { loginTo } from '../../src/commands/sandbox/serve.js';
import { ConfigStore } from '../../src/state/config-store.js';
import { demoWorldImage } from './cli.js';
import { perFile } from './per-file.js';
import { QUICK_MUTATIONS } from './sandbox.js';
import type { MutationDelays } from '../../src/sandbox/models/lifecycle.js';

export interface DemoSandboxOptions {
  /** `--as-of <day>`. */
  asOf?: string;
  /** `--ingest-every <seconds>` (default 0: off). */
  ingestEverySeconds?: number;
  /** `--login [profile]` with ADOPS_CONFIG_DIR=configDir: the profile points at the sandbox with the first key, made current. */
  login?: { configDir: string; profile?: string };
  /** How long a mutation stays pending, then running (default QUICK_MUTATIONS, helpers/sandbox.ts). */
  mutationDelaysMs?: MutationDelays;
}

export interface DemoSandbox {
  url: string;
  stop(): Promise<void>;
}

/** Start it; resolves once it serves every route (the child's "listening" line comes once it listens, requests then wait). */
export async function startDemoSandbox(opts: DemoSandboxOptions = {}): Promise<DemoSandbox> {
  const booted = await bootSandbox({
    host: '127.0.0.1',
    port: 0,
    data: ':memory:',
    quiet: true,
    snapshot: demoWorldImage(),
    ingestEveryMs: Math.round((opts.ingestEverySeconds ?? 0) * 1000),
    mutationDelaysMs: opts.mutationDelaysMs ?? QUICK_MUTATIONS,
    ...(opts.asOf !== undefined ? { asOf: opts.asOf } : {}),
  });
  try {
    await booted.ready;
    if (opts.login) {
      // What serve.ts writes for --login, through the same store.
      await new ConfigStore(opts.login.configDir).update(loginTo(opts.login.profile ?? 'sandbox', booted.url, booted.keys[0]!));
    }
  } catch (err) {
    await booted.close();
    throw err;
  }
  return { url: booted.url, stop: () => booted.close() };
}

/** One for the whole file: started in beforeAll, stopped in afterAll (`const sandbox = useDemoSandbox(); ... sandbox.url`). */
export function useDemoSandbox(opts: DemoSandboxOptions = {}): DemoSandbox {
  const running = perFile(
    'useDemoSandbox: the in-process demo sandbox',
    () => startDemoSandbox(opts),
    (sb) => sb.stop(),
  );
  return {
    get url() {
      return running().url;
    },
    stop: () => running().stop(),
  };
}
