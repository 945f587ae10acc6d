// A CommonJS file of dist/bundle loaded with V8's code cache the build made for
// it (#37): the stored reads' bundle (fast-read.cjs) is ~350 KB that Node's
// require() parses on every run, and its functions are compiled again on their
// first call each run; with the cache V8 takes both ready-made (a stored read
// ~11% fewer instructions, ~5% less CPU on Node 20.20). The cache is V8's, so it
// serves the Node that made it only: its name carries that Node's version and
// arch, and any other Node (or a build that made none) takes the plain require().
// V8 checks the cache against the source and its flags itself and compiles as
// usual when it refuses it. `npm run build` writes it (scripts/build.mjs runs
// writeCodeCache in a child of the Node that builds).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// Node's own CommonJS wrapper, on one line, so line numbers in a stack trace are the file's.
const head = '(function (exports, require, module, __filename, __dirname) {';
const cacheFile = (file) => `${file}.${process.version}-${process.arch}.cache`;

function compile(file, cachedData) {
  const vm = require('node:vm');
  // No import() in such a file: a vm.Script has none (scripts/bundle-plugins.mjs builtinImportsRequired).
  return new vm.Script(`${head}${fs.readFileSync(file, 'utf8')}\n})`, { filename: file, cachedData });
}

// Runs the file's top level as require() would, and puts it in require.cache as require() would.
function run(script, file) {
  const Module = require('node:module');
  const mod = new Module(file, module);
  mod.filename = file;
  require.cache[file] = mod;
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}

/** `file` compiled with this Node's code cache of it (vm.Script: cachedDataRejected says whether V8 took it), or undefined. */
function compileCached(file) {
  try {
    return compile(file, fs.readFileSync(cacheFile(file)));
  } catch {
    return undefined; // no cache for this Node (or no file: require() says so as it always has)
  }
}
exports.compileCached = compileCached;

/** The exports of `file` (absolute), through its code cache when this Node has one, else require(). */
exports.requireCached = (file) => {
  const script = compileCached(file);
  return script ? run(script, file) : require(file);
};

/**
 * From now on in this process, each .js file of `dir` (absolute: dist/bundle, main.js and its chunks) that require()
 * loads is compiled with this Node's code cache of it when the build made one (#37 session 8: `config list` loads ~50
 * chunks; with their caches ~20% fewer instructions); a file without one is loaded as require() always loads it.
 * `written`, for the build: every file is compiled without a cache and handed to it (written(file, script)), so its
 * cache can be written after a real run. The hook is require()'s table of loaders by extension (Module._extensions,
 * documented as require.extensions, deprecated, and what ts-node and others still hook): Node 20 has no documented
 * way to hand require() a compiled script (module.enableCompileCache is Node 22.1+), and a chunk's own require()s of
 * its siblings must come here too.
 */
exports.requireChunksCached = (dir, written) => {
  const Module = require('node:module');
  const plain = Module._extensions['.js'];
  Module._extensions['.js'] = function (mod, file) {
    const script = path.dirname(file) !== dir ? undefined : written ? compile(file, undefined) : compileCached(file);
    if (!script) return plain.call(this, mod, file);
    if (written) written(file, script);
    // As Node's own loader runs a CommonJS file (require.cache already holds `mod`; Module.load marks it loaded).
    script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dir);
  };
};

/** Where `file`'s code cache for the running Node is (scripts/code-cache-chunks.mjs writes main.js's chunks'). */
exports.cacheFile = cacheFile;

/** Writes `file`'s code cache for the running Node, made after its top level ran (what every run compiles first). */
exports.writeCodeCache = (file) => exports.loadForCache(file).write();

/**
 * `file` compiled as requireCached compiles it (so the cache fits) and its top level run: its exports, and write(),
 * which writes this Node's cache of it from what V8 compiled so far (scripts/code-cache-after-read.mjs runs a stored
 * read first, so the functions a read calls are in it, not only set-up's).
 */
exports.loadForCache = (file) => {
  const script = compile(file, undefined);
  const exported = run(script, file);
  return {
    exports: exported,
    write: () => {
      fs.writeFileSync(cacheFile(file), script.createCachedData());
      return cacheFile(file);
    },
  };
};
