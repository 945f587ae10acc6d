// The single executable's entry (#37): what bin/adops.js is to the npm install,
// bundled by scripts/build-sea.mjs as the SEA's `main`. It asks the one entry
// decision (src/cli/route.ts, #26) and acts on it as bin/adops.js does (src/cli/launcher.ts); a help page
// comes from quick.cjs and help-pages.cjs, a stored read from the stored reads'
// bundle (fast-read.cjs), everything else, and what those decline, from the
// whole CLI (adops.cjs). Each is an asset of the executable, compiled here with
// the V8 code cache the build made for it, so a
// start compiles neither: before this, the SEA's main WAS the whole CLI (~5 MB),
// and `--version` paid for deserializing all of it (1.6x `node -e 0`).
// ESM syntax so that esbuild keeps of route.ts only what route() reaches; bundled as CommonJS (the SEA's
// main is a CommonJS script), where `require` is the entry's: Node's built-in modules, loaded when needed.
import { getRawAsset } from 'node:sea';
import { answer, route } from '../src/cli/launcher.ts';

// Under Node, what runs adops again (the demo's steps) starts `node <launcher> ARGS`; here the
// launcher is this executable itself, so a first argument naming it is dropped.
if (process.argv[2] === process.execPath) process.argv.splice(2, 1);
const argv = process.argv.slice(2);
// What answers which decision is src/cli/launcher.ts, as for bin/adops.js; here each part is an asset.
answer(
  route(argv, process.env, () => require('node:tty').isatty(2)),
  argv,
  {
    // The package's version, written in by the build (scripts/build-sea.mjs defines it).
    version: () => __ADOPS_VERSION__,
    quick: () => load('quick.cjs'),
    helpPages: (first) => load('help-pages.cjs').helpPages(first),
    fastRead: () => load('fast-read.cjs'),
    whole: () => void load('adops.cjs'),
  },
);

/**
 * Runs an asset (a function expression `(function (exports, require, module) {...})`, the build's
 * wrapping of a CommonJS bundle) with this entry's `require` (Node's built-in modules: all a bundle
 * loads), and gives its exports. Its code cache is the asset `<name>.cache`: V8 checks it matches
 * (its version, flags and this source) and otherwise compiles as if there were none.
 */
function load(name) {
  const { Script, constants } = require('node:vm');
  // Read in place (getRawAsset: no copy of the asset) and decoded by Buffer, not getAsset's TextDecoder (~4% of a
  // stored read's CPU in a profile); as Latin-1, a plain copy: the build makes every bundle ASCII only (asciiOnly).
  const source = Buffer.from(getRawAsset(name)).toString('latin1');
  const script = new Script(source, {
    filename: name,
    cachedData: Buffer.from(getRawAsset(`${name}.cache`)),
    // The bundles still import() a few built-in modules (node:https for an https origin, node:v8 in a long run):
    // resolved as this entry's own import() would be, not refused as a script without a loader is.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // .ci/sea asks, to see that V8 took each cache (a refused one costs a full compile, silently).
  if (process.env.ADOPS_SEA_CACHE_CHECK) process.stderr.write(`adops-sea: ${name} code cache ${script.cachedDataRejected ? 'refused' : 'taken'}\n`);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module);
  return module.exports;
}
