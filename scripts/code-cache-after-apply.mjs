// V8's code cache of `mutations apply`'s bundle (dist/bundle/apply-run.cjs), made after a real apply (#37 session
// 6), as code-cache-after-sync.mjs makes sync-run.cjs's after a sync: `node code-cache-after-apply.mjs <bundle>`,
// run by the Node that builds (scripts/build.mjs); the cache is written beside the bundle under this Node's
// version, where bin/code-cache.cjs looks. A cache made after the top level only holds set-up's functions; apply's
// own (argv, the config, the CSV's two passes, the journal and its lock, the client, the answer checks, the writer)
// would be compiled from source on every run. So this starts the sandbox (tsc's dist/, in-memory, loopback),
// applies one row through tsc's dist/ runner (so its journal records it), then runs the bundle's runApply on the
// file with that row and eight new ones: the resumed row's path (sent by an earlier run) and the sends' both run
// and are cached. The cache is written as the process exits (runApply ends the process).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../dist/sandbox/index.js';
import { runCli } from '../dist/cli/run.js';
import { getRegistry } from '../dist/commands/index.js';

const [bundle] = process.argv.slice(2);

// V8 stamps a code cache with a hash of its flags and refuses it under other flags. A file of changes sets one as it
// starts (--semi-space-growth-factor=1, client/young-generation.ts), so a cache written after it was refused by every
// run, which compiles the bundle before that (test/e2e/code-cache.test.ts). Here, where nine rows do not need the
// young generation held, the flags stay as a fresh process has them (for tsc's dist/ run too: its import('node:v8')
// is the ES module view, brought in line by syncBuiltinESMExports).
v8.setFlagsFromString = () => {};
syncBuiltinESMExports();

// One temporary directory for all of it, removed as the process exits: the config dir (nothing of the builder's),
// the file of changes and its journal, and, as TMPDIR, the sandbox's files directory.
const work = mkdtempSync(join(tmpdir(), 'adops-code-cache-apply-'));
process.env.TMPDIR = work;
const configDir = join(work, 'config');
const file = join(work, 'changes.csv');
/** A CSV of renames of the demo world's campaigns (as bench/apply.js writes them), rows [0, n). */
const changes = (n) =>
  [
    'advertiserId,action,targetType,targetId,name',
    ...Array.from({ length: n }, (_, i) => `acc_acme_a_001,rename,campaign,${1000 + i},"Spring, week ${i}"`),
  ].join('\n') + '\n';
writeFileSync(file, changes(1));
const sandbox = await startSandbox({ port: 0, data: ':memory:', quiet: true, ticker: false });
// The key through the environment, as a pipeline's would be.
Object.assign(process.env, { ADOPS_CONFIG_DIR: configDir, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: sandbox.keys[0].key });
const APPLY = ['mutations', 'apply', file, '--output', 'ndjson'];

const quiet = { write: () => true, isTTY: false };
const first = await runCli(APPLY, { stdin: process.stdin, stdinIsTTY: false, stdout: quiet, stderr: quiet, env: process.env, registry: getRegistry() });
if (first !== 0) throw new Error(`the first apply (tsc's dist/) exited ${first}`);
writeFileSync(file, changes(9));

const loaded = createRequire(import.meta.url)('../bin/code-cache.cjs').loadForCache(resolve(bundle));
process.on('exit', (code) => {
  rmSync(work, { recursive: true, force: true });
  if (code === 0) loaded.write();
});
const ran = await loaded.exports.runApply(APPLY);
// runApply exits the process when it ran; false means the bundle declined the apply, which the build must not hide.
if (!ran) throw new Error(`the apply bundle declined \`adops ${APPLY.join(' ')}\``);
