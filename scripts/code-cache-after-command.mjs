// What code-cache-after-sync.mjs and code-cache-after-apply.mjs share (#37): a one-command bundle's V8 code cache made
// after a real run of its command. One temporary directory for all of it, removed as the process exits (the config
// dir: nothing of the builder's; the command's files; as TMPDIR, the sandbox's files directory, since the bundle's
// run ends the process before the sandbox could close). The sandbox is tsc's dist/, in memory, on loopback, the key
// in the environment as a pipeline's would be. The command runs once through tsc's dist/ runner (so a re-run's path
// has something to find), `between` changes its input, then the bundle's own entry runs it: both paths are compiled
// and cached. The cache is written as the process exits with 0 (the bundle's run ends the process).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../dist/sandbox/index.js';
import { runCli } from '../dist/cli/run.js';
import { getRegistry } from '../dist/commands/index.js';

/**
 * @param {{ bundle: string, name: string, entry: string, prepare: (work: string) => string[], between: () => void }} c
 *   `prepare` writes the first run's input under `work` and answers the argv; `entry` is the bundle's exported runner.
 */
export async function cacheAfterCommand({ bundle, name, entry, prepare, between }) {
  const work = mkdtempSync(join(tmpdir(), `adops-code-cache-${name}-`));
  // Removed however the process ends (a bundle that cannot be loaded, a failed first run): registered before any of it.
  let loaded;
  process.on('exit', (code) => {
    rmSync(work, { recursive: true, force: true });
    if (code === 0 && loaded) loaded.write();
  });
  process.env.TMPDIR = work;
  const argv = prepare(work);
  const sandbox = await startSandbox({ port: 0, data: ':memory:', quiet: true, ticker: false });
  Object.assign(process.env, { ADOPS_CONFIG_DIR: join(work, 'config'), ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: sandbox.keys[0].key });

  const quiet = { write: () => true, isTTY: false };
  const first = await runCli(argv, { stdin: process.stdin, stdinIsTTY: false, stdout: quiet, stderr: quiet, env: process.env, registry: getRegistry() });
  if (first !== 0) throw new Error(`the first ${name} (tsc's dist/) exited ${first}`);
  between();

  loaded = createRequire(import.meta.url)('../bin/code-cache.cjs').loadForCache(resolve(bundle));
  const ran = await loaded.exports[entry](argv);
  // The entry exits the process when it ran; false means the bundle declined the command, which the build must not hide.
  if (!ran) throw new Error(`the ${name} bundle declined \`adops ${argv.join(' ')}\``);
}
