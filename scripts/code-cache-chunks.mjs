// V8's code cache of main.js and its chunks (dist/bundle, CommonJS: scripts/bundle-commonjs.mjs), made after a real
// run of `adops config list` (#37 session 8): `node code-cache-chunks.mjs <dist/bundle>`, run by the Node that builds
// (scripts/build.mjs). That run loads the chunks every command of the whole CLI loads (main.js, the runner, commander,
// the registry, the output writers), and their caches hold the functions it called, not only each top level's. The
// caches are written beside the chunks under this Node's version as the run exits, where bin/code-cache.cjs looks
// (requireChunksCached); a chunk that run did not load has none and is require()d as before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const { cacheFile, requireChunksCached } = require('../bin/code-cache.cjs');
const dir = resolve(process.argv[2]);
const compiled = [];
requireChunksCached(dir, (file, script) => compiled.push([file, script]));
// A config directory of its own (nothing of the builder's is read or written); the run ends with process.exit.
const config = mkdtempSync(join(tmpdir(), 'adops-chunk-cache-'));
process.env.ADOPS_CONFIG_DIR = config;
process.on('exit', (code) => {
  rmSync(config, { recursive: true, force: true });
  if (code !== 0) return; // the build says so and goes on without them (the chunks load as before)
  for (const [file, script] of compiled) writeFileSync(cacheFile(file), script.createCachedData());
});
process.argv = [process.argv[0], join(dir, 'main.js'), 'config', 'list', '--json'];
require(join(dir, 'main.js'));
