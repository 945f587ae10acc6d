#!/usr/bin/env node
// The `adops` command (package.json "bin"). CommonJS on purpose (bin/package.json
// says so; the rest of the package is ESM): what answers argv is decided by
// dist/bundle/route.cjs (src/cli/route.ts, the one entry decision, #26), a
// small require that never starts Node's ESM loader (~20 more internal
// modules: as an ES module this file put `--version` over its 1.3x-of-bare-node
// budget, issue #4). This file only acts on the decision: the version from
// package.json; a help page from dist/bundle/quick.cjs (with the group and
// command pages the build rendered, help-pages.cjs, #16); a stored list from
// dist/bundle/fast-read.cjs (#16); everything else, and what those decline,
// from the ESM bundle (`npm run build` writes dist/bundle/).
'use strict';

const argv = process.argv.slice(2);
const version = () => require('../package.json').version;
const NOT_BUILT = Symbol('not built');
const decision = fromBundle(() => require('../dist/bundle/route.cjs').route(argv, process.env, () => require('node:tty').isatty(2)));
if (decision !== NOT_BUILT) answer(decision);

function answer(decision) {
  switch (decision.kind) {
    case 'version':
      return print(version() + '\n');
    case 'help': {
      const text = fromBundle(() =>
        require('../dist/bundle/quick.cjs').helpPage(decision, version, (first) => require('../dist/bundle/help-pages.cjs').helpPages(first)),
      );
      if (text === undefined) return whole(); // the tree, an unknown command's error: the registry's answers
      if (text !== NOT_BUILT) print(text);
      return;
    }
    case 'stored-read': {
      // A stored list (`observe campaigns --json`, the loop of many scripts) runs from its own CommonJS
      // bundle; what it declines (false: nothing written, nothing sent) goes to the whole CLI.
      // With the code cache the build made for this Node, when there is one (bin/code-cache.cjs, #37).
      const fast = fromBundle(() => require('./code-cache.cjs').requireCached(require('node:path').join(__dirname, '../dist/bundle/fast-read.cjs')));
      if (fast !== NOT_BUILT) fast.runFast(argv).then((ran) => ran || whole());
      return;
    }
    default: // 'complete', 'cli'
      return whole();
  }
}

function whole() {
  import('../dist/bundle/main.js').catch(notBuilt);
}

/** load() (a require of dist/bundle), or NOT_BUILT when the checkout was never built. */
function fromBundle(load) {
  try {
    return load();
  } catch (err) {
    notBuilt(err);
    return NOT_BUILT;
  }
}

// A checkout that was never built (a packed tarball always is: prepack builds).
function notBuilt(err) {
  if (!(
    err &&
    /MODULE_NOT_FOUND/.test(err.code) &&
    /Cannot find module '[^']*dist[\\/]bundle[\\/](main\.js|route\.cjs|quick\.cjs|help-pages\.cjs|fast-read\.cjs)'/.test(err.message)
  ))
    throw err;
  process.stderr.write('adops: dist/bundle is missing: run `npm run build` in this checkout (or reinstall the package)\n');
  process.exitCode = 1;
}

// Straight to fd 1: process.stdout on a pipe loads net and the streams, ~9 ms
// here, a fifth of bare node's start-up.
function print(out) {
  const buf = Buffer.from(out);
  let done = 0;
  try {
    while (done < buf.length) done += require('node:fs').writeSync(1, buf, done);
  } catch (err) {
    if (err.code === 'EAGAIN')
      process.stdout.write(buf.subarray(done)); // a non-blocking fd 1
    else if (err.code !== 'EPIPE') throw err; // the reader left (`adops --help | head -1`): done
  }
}
