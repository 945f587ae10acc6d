// V8's code cache of `assets sync`'s bundle (dist/bundle/sync-run.cjs), made after a real sync (#37), as
// code-cache-after-read.mjs makes fast-read.cjs's after a stored read: `node code-cache-after-sync.mjs <bundle>`,
// run by the Node that builds (scripts/build.mjs); the cache is written beside the bundle under this Node's
// version, where bin/code-cache.cjs looks. A cache made after the top level only holds set-up's functions; the
// sync's own (argv, the config, the client, the listing and its answer checks, the journal, hashing, the writer)
// were compiled from source on every run. So this starts the sandbox (tsc's dist/, in-memory, loopback), syncs
// one file through tsc's dist/ runner (so it is there), then runs the bundle's runSync on a directory holding
// that file and one new one: the re-run's path (already there) and the upload's (reserve, PUT, finalize) both run
// and are cached. The cache is written as the process exits (runSync ends the process).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { startSandbox } from '../dist/sandbox/index.js';
import { runCli } from '../dist/cli/run.js';
import { getRegistry } from '../dist/commands/index.js';

const [bundle] = process.argv.slice(2);

// One temporary directory for all of it, removed as the process exits: the config dir (nothing of the builder's),
// the files, and, as TMPDIR, the sandbox's files directory (runSync ends the process before the sandbox could close).
const work = mkdtempSync(join(tmpdir(), 'adops-code-cache-sync-'));
process.env.TMPDIR = work;
const configDir = join(work, 'config');
const dir = join(work, 'creatives');
mkdirSync(dir);
writeFileSync(join(dir, 'a.png'), png(1));
const sandbox = await startSandbox({ port: 0, data: ':memory:', quiet: true, ticker: false });
// The key through the environment, as a pipeline's would be.
Object.assign(process.env, { ADOPS_CONFIG_DIR: configDir, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: sandbox.keys[0].key });
const SYNC = ['assets', 'sync', dir, '--output', 'ndjson'];

const quiet = { write: () => true, isTTY: false };
const first = await runCli(SYNC, { stdin: process.stdin, stdinIsTTY: false, stdout: quiet, stderr: quiet, env: process.env, registry: getRegistry() });
if (first !== 0) throw new Error(`the first sync (tsc's dist/) exited ${first}`);
writeFileSync(join(dir, 'b.png'), png(2));

const loaded = createRequire(import.meta.url)('../bin/code-cache.cjs').loadForCache(resolve(bundle));
process.on('exit', (code) => {
  rmSync(work, { recursive: true, force: true });
  if (code === 0) loaded.write();
});
const ran = await loaded.exports.runSync(SYNC);
// runSync exits the process when it ran; false means the bundle declined the sync, which the build must not hide.
if (!ran) throw new Error(`the sync bundle declined \`adops ${SYNC.join(' ')}\``);

/** A minimal PNG of width × 1 (as bench/sync.js makes them). */
function png(width) {
  const u32 = (n) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const chunk = (type, data) => {
    const body = Buffer.from([...Buffer.from(type, 'latin1'), ...data]);
    return [...u32(data.length), ...body, ...u32(crc32(body))];
  };
  return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk('IHDR', [...u32(width), ...u32(1), 8, 6, 0, 0, 0]), ...chunk('IEND', [])]);
}
