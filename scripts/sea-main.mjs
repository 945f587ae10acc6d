// The single executable's entry (#37): what bin/adops.js is to the npm install,
// bundled by scripts/build-sea.mjs as the SEA's `main`. It asks the one entry
// decision (src/cli/route.ts, #26) and answers `--version` itself; a help page
// comes from quick.cjs and help-pages.cjs, a stored read from the stored reads'
// bundle (fast-read.cjs), everything else, and what those decline, from the
// whole CLI (adops.cjs). Each is an asset of the executable, compiled here with
// the V8 code cache the build made for it, so a
// start compiles neither: before this, the SEA's main WAS the whole CLI (~5 MB),
// and `--version` paid for deserializing all of it (1.6x `node -e 0`).
// ESM syntax so that esbuild keeps of route.ts only what route() reaches; bundled as CommonJS (the SEA's
// main is a CommonJS script), where `require` is the entry's: Node's built-in modules, loaded when needed.
import { getRawAsset } from 'node:sea';
import { route } from '../src/cli/route.ts';

// Under Node, what runs adops again (the demo's steps) starts `node <launcher> ARGS`; here the
// launcher is this executable itself, so a first argument naming it is dropped.
if (process.argv[2] === process.execPath) process.argv.splice(2, 1);
const argv = process.argv.slice(2);
const decision = route(argv, process.env, () => require('node:tty').isatty(2));
if (decision.kind === 'version') {
  // The package's version, written in by the build (scripts/build-sea.mjs defines it).
  print(`${__ADOPS_VERSION__}\n`);
} else if (decision.kind === 'help') {
  // As bin/adops.js: the top page from quick.cjs, a group's or command's from the pages the build rendered
  // (help-pages.cjs); what they do not answer (the tree, an unknown command) is the whole CLI's.
  const page = load('quick.cjs').helpPage(
    decision,
    () => __ADOPS_VERSION__,
    (first) => load('help-pages.cjs').helpPages(first),
  );
  if (page === undefined) load('adops.cjs');
  else print(page);
} else if (decision.kind === 'stored-read') {
  load('fast-read.cjs')
    .runFast(argv)
    .then((ran) => ran || load('adops.cjs'));
} else {
  load('adops.cjs');
}

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

// Straight to fd 1, as bin/adops.js does: process.stdout on a pipe loads net and the streams.
function print(out) {
  const buf = Buffer.from(out);
  let done = 0;
  try {
    while (done < buf.length) done += require('node:fs').writeSync(1, buf, done);
  } catch (err) {
    if (err.code === 'EAGAIN') process.stdout.write(buf.subarray(done));
    else if (err.code !== 'EPIPE') throw err;
  }
}
