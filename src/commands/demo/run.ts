// adops demo: start a throwaway in-memory sandbox, point a temporary config
// dir at it, and run adops itself (child processes of this very CLI, as a
// user would) through a short tour of real workflows, printing each step as
// `$ adops …` followed by its output. stdout carries the transcript (it is the
// result); the exit code says whether every step behaved as expected, so CI
// can run it. The demo key reaches the steps only through ADOPS_API_KEY.
// The steps are ./tour.ts's; running one is ./steps.ts's.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandContext } from '../../cli/context.js';
import { stepRunner } from './steps.js';
import { tour } from './tour.js';

/** The launcher of this package (bin/adops.js), found from this file so bundling or cwd do not matter. */
export function adopsBin(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const data = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; bin?: Record<string, string> };
        if (data.name === 'adops') return resolve(dir, data.bin?.adops ?? 'bin/adops.js');
      } catch {
        // not ours; keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return resolve(process.argv[1] ?? 'bin/adops.js');
}

/** The steps' environment: the caller's, less its ADOPS_ settings, with the demo's config dir, sandbox and key. */
function stepEnv(ctx: CommandContext, demo: { configDir: string; url: string; key: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined && !k.startsWith('ADOPS_')) env[k] = v;
  Object.assign(env, { ADOPS_CONFIG_DIR: demo.configDir, ADOPS_BASE_URL: demo.url, ADOPS_API_KEY: demo.key });
  if (ctx.debug) env.ADOPS_DEBUG = '1';
  return env;
}

export async function run(ctx: CommandContext): Promise<number> {
  const started = Date.now();
  const out = (s: string) => void ctx.io.stdout.write(s);
  const bold = (s: string) => (ctx.output.color ? `\x1b[1m${s}\x1b[22m` : s);

  out(`${bold('adops demo')}: a short tour of real adops commands against a throwaway local sandbox\n`);
  const { startSandbox, startRaceRelay, DEMO_PLAN, DEMO_LINE_ITEMS } = await import('../../sandbox/index.js');
  const sandbox = await startSandbox({ port: 0, data: ':memory:', quiet: true });
  const configHome = mkdtempSync(join(tmpdir(), 'adops-demo-'));
  let steps: ReturnType<typeof stepRunner> | undefined;
  try {
    const key = sandbox.keys[0]?.key;
    if (!key) throw new Error('the sandbox has no demo key');
    const env = stepEnv(ctx, { configDir: join(configHome, 'config'), url: sandbox.url, key });
    steps = stepRunner(ctx, { bin: adopsBin(), env, key, started });

    out(`Sandbox: ${sandbox.url} (in memory: everything here is gone when the demo ends)\n`);
    out(`Each step runs adops as you would, with a temporary config dir, ADOPS_BASE_URL set to the sandbox\n`);
    out(`and a demo key in ADOPS_API_KEY (the environment, never the command line). Your own config is not touched.\n`);

    await tour(steps, { ctx, sandboxUrl: sandbox.url, key, scratch: configHome, plan: DEMO_PLAN, lineItems: DEMO_LINE_ITEMS, startRaceRelay });

    out(`\n${bold('Next steps')}\n`);
    out('  adops sandbox serve --login   keep a sandbox running (another terminal) and point the "sandbox" profile at it\n');
    out('  adops observe campaigns       …then run any command above against it, without copying a key\n');
    out('  adops sandbox keys            the demo keys: other organizations, read-only, revoked, unsubscribed\n');
    out('  adops --help                  every command (docs/cli.md); exit codes: docs/exit-codes.md\n');
    return steps.finish();
  } finally {
    steps?.close();
    await sandbox.close();
    rmSync(configHome, { recursive: true, force: true });
  }
}
