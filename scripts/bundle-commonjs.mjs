// main.js and its chunks as CommonJS (#37 session 8): esbuild splits only ES modules, and Node 20 loads ES modules
// through its ESM loader (resolve, an async read through the thread pool, a module job and a link per file, and no
// compile cache): more than half of `adops config list`'s profile over ~55 chunks. So scripts/build.mjs lets esbuild
// split as ESM, and each output is then rewritten here, file by file, as CommonJS that require()s the same chunks:
// - a static import becomes a require() at the same place, an export a getter on module.exports (esbuild's
//   transform sets module.exports before its first require(), so a cycle between chunks sees the getters, as it saw
//   live bindings);
// - an import() (of a chunk, a built-in, or a CommonJS package left external: cjsDynamicImportsExternal) becomes a
//   require() in a promise, so no file of the bundle starts the ESM loader; that require() waits for the event loop's
//   next turn (setImmediate), as the ESM loader's reads did: esbuild's Promise.resolve().then() ran it in the same
//   turn, before the I/O callbacks due, and `sandbox serve` loaded its routes (~150 ms) before saying "listening on"
//   instead of after (src/sandbox/server.ts and index.ts listen first, then load: ready 492 -> 653 ms, 12 pairs);
// - import.meta.url is the file's own URL, from __filename;
// - main.js's top-level await (not in CommonJS) is a .then(), as in the single executable (build-sea.mjs SEA_SWAPS),
//   with exit code 13 set first: should main() never settle and the event loop empty, Node ended the ES module with 13
//   ("unsettled top-level await"), and a script must not read 0 from it now (finish() always exits with its code);
// - 'use strict' first: an ES module is strict, and the code was written and tested as one.
// dist/bundle/package.json says "commonjs", so the .js names (main.js, what bin/adops.js and the tests name) stay.
import { transformSync } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const TOP_LEVEL_AWAIT = {
  from: 'await finish(await main(process.argv.slice(2)));',
  to: 'process.exitCode = 13; void main(process.argv.slice(2)).then(finish);',
};
const IMPORT_META_URL = '__adopsImportMetaUrl';
// How esbuild lowers import('x') for CommonJS, and what it becomes here (a require() on the event loop's next turn).
const LOWERED_IMPORT = 'Promise.resolve().then(() => __toESM(require(';
const LOWERED_IMPORT_CALL = /Promise\.resolve\(\)\.then\(\(\) => (__toESM\(require\("[^"\\]+"\)\))\)/g;
const NEXT_TURN_IMPORT = '__adopsImport';

/** Rewrites each of `files` (absolute paths of esbuild's ESM outputs in `dir`) as CommonJS; returns each one's new size. */
export function chunksToCommonJs(dir, files) {
  writeFileSync(join(dir, 'package.json'), '{\n  "//": "main.js and its chunks are CommonJS (scripts/bundle-commonjs.mjs)",\n  "type": "commonjs"\n}\n');
  const bytes = {};
  for (const file of files) {
    let source = readFileSync(file, 'utf8');
    if (basename(file) === 'main.js') source = swapOnce(source, TOP_LEVEL_AWAIT, file);
    const out = transformSync(source, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': IMPORT_META_URL },
      sourcefile: basename(file),
      logLevel: 'silent',
    });
    // A warning here is a construct CommonJS would run differently (import.meta's other fields, a top-level await).
    if (out.warnings.length > 0) throw new Error(`${file} as CommonJS: ${out.warnings.map((w) => w.text).join('; ')}`);
    const lowered = out.code.split(LOWERED_IMPORT).length - 1;
    out.code = out.code.replace(LOWERED_IMPORT_CALL, `${NEXT_TURN_IMPORT}(() => $1)`);
    if (out.code.includes(LOWERED_IMPORT)) throw new Error(`${file}: an import() lowered in a form bundle-commonjs.mjs does not know`);
    const head = ["'use strict';"];
    if (lowered > 0) head.push(`const ${NEXT_TURN_IMPORT} = (load) => new Promise((turn) => setImmediate(turn)).then(load);`);
    if (out.code.includes(IMPORT_META_URL)) head.push(`const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`);
    const code = `${head.join(' ')}\n${out.code}`;
    writeFileSync(file, code);
    bytes[file] = Buffer.byteLength(code);
  }
  return bytes;
}

function swapOnce(source, { from, to }, file) {
  const parts = source.split(from);
  if (parts.length !== 2) throw new Error(`${file} should hold \`${from}\` once (${parts.length - 1} found): update scripts/bundle-commonjs.mjs`);
  return parts.join(to);
}
