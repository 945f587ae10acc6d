// V8's code cache of the stored reads' bundle, made after a real stored read (#37): run by the Node that will
// load it (build-sea.mjs: the executable's Node 24), as `node code-cache-after-read.mjs <bundle> <cache file>`;
// or, for the npm install (build.mjs: the Node that builds), as `node code-cache-after-read.mjs <bundle> --npm`: then
// the bundle is compiled as bin/code-cache.cjs compiles it (its CommonJS wrapper) and the cache written beside it
// under this Node's version, where the launcher looks.
// A cache made after the bundle's top level only holds the functions that set-up compiles; the ~300 more a
// read calls (argv, the config, the client, the JSON writer) were compiled from source on every run: ~26 M
// instructions, 12% of the executable's stored read. So this starts the sandbox (tsc's dist/, in-memory
// store, on a loopback port), runs `observe campaigns --json` against it through the bundle's runFast, wrapped
// and compiled as scripts/sea-main.mjs compiles it, and writes the cache as the process exits (runFast ends
// the process). What another read calls and this one did not is compiled on first call, as before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Script, constants } from 'node:vm';
import { startSandbox } from '../dist/sandbox/index.js';

const [bundle, cacheFile] = process.argv.slice(2);
const READ = ['observe', 'campaigns', '--json'];

// One temporary directory for all of it, removed as the process exits: the read's config dir (empty: nothing of the
// builder's) and, as TMPDIR, the sandbox's files directory (runFast ends the process before the sandbox could close).
const configDir = mkdtempSync(join(tmpdir(), 'adops-code-cache-'));
// Removed however the process ends (a bundle that cannot be loaded too): registered before any of the work.
let writeCache;
process.on('exit', (code) => {
  rmSync(configDir, { recursive: true, force: true });
  if (code === 0 && writeCache) writeCache();
});
process.env.TMPDIR = configDir;
const sandbox = await startSandbox({ port: 0, data: ':memory:', quiet: true, ticker: false });
// The key through the environment, as a script's would be.
Object.assign(process.env, { ADOPS_CONFIG_DIR: configDir, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: sandbox.keys[0].key });

const loaded = cacheFile === '--npm' ? npmLoad() : seaLoad();
const { runFast } = loaded;
writeCache = loaded.writeCache;
const ran = await runFast(READ);
// runFast exits the process when it ran; false means the bundle declined the read, which the build must not hide.
if (!ran) throw new Error(`the stored reads' bundle declined \`adops ${READ.join(' ')}\``);

/** As scripts/sea-main.mjs compiles an asset: the bundle's source is the function expression the build wrapped it in. */
function seaLoad() {
  const script = new Script(readFileSync(bundle, 'utf8'), { filename: bundle, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(import.meta.url), module);
  return { runFast: module.exports.runFast, writeCache: () => writeFileSync(cacheFile, script.createCachedData()) };
}

/** As bin/adops.js loads fast-read.cjs (bin/code-cache.cjs), so V8 takes the cache there. */
function npmLoad() {
  const loaded = createRequire(import.meta.url)('../bin/code-cache.cjs').loadForCache(resolve(bundle));
  return { runFast: loaded.exports.runFast, writeCache: loaded.write };
}
