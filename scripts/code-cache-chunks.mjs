// V8's code cache of main.js and its chunks (dist/bundle, CommonJS: scripts/bundle-commonjs.mjs), made after a real
// run of the whole CLI (#37 session 8): `node code-cache-chunks.mjs <dist/bundle> <argv...>`, run by the Node that
// builds (scripts/build.mjs), first with `config list` (the chunks every command loads: main.js, the runner,
// commander, the registry, the output writers), then with `mcp` answering one initialize on stdin (the MCP SDK and
// server). Each cache holds the functions that run called, not only the chunk's top level. They are written beside
// the chunks under this Node's version as the run exits, where bin/code-cache.cjs looks (requireChunksCached); a chunk
// that already has one keeps it (the first run's), and a chunk no run loaded has none and is require()d as before.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  for (const [file, script] of compiled) if (!existsSync(cacheFile(file))) writeFileSync(cacheFile(file), script.createCachedData());
});
process.argv = [process.argv[0], join(dir, 'main.js'), ...process.argv.slice(3)];
require(join(dir, 'main.js'));
