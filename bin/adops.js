#!/usr/bin/env node
// The `adops` command (package.json "bin"). CommonJS on purpose (bin/package.json
// says so; the rest of the package is ESM): what answers argv is decided by
// dist/bundle/route.cjs (src/cli/launcher.ts: the one entry decision, route.ts,
// #26, and what a launcher does with it, shared with the single executable's
// main), a small require that never starts Node's ESM loader (~20 more internal
// modules: as an ES module this file put `--version` over its 1.3x-of-bare-node
// budget, issue #4). This file only says where each part is for the npm install:
// the version from package.json; a help page from dist/bundle/quick.cjs (with
// the group and command pages the build rendered, help-pages.cjs, #16); a stored
// list from dist/bundle/fast-read.cjs (#16); a sync and a file of changes from
// sync-run.cjs and apply-run.cjs (#37); everything else, and what those
// decline, from main.js and its chunks, CommonJS too since #37 session 8
// (scripts/bundle-commonjs.mjs), with their code caches (`npm run build`
// writes dist/bundle/): no command starts the ESM loader.
'use strict';

const argv = process.argv.slice(2);
try {
  const launcher = require('../dist/bundle/route.cjs');
  launcher.answer(
    launcher.route(argv, process.env, () => require('node:tty').isatty(2)),
    argv,
    {
      version: () => require('../package.json').version,
      quick: () => require('../dist/bundle/quick.cjs'),
      helpPages: (first) => require('../dist/bundle/help-pages.cjs').helpPages(first),
      // With the code cache the build made for this Node, when there is one (bin/code-cache.cjs, #37).
      fastRead: () => require('./code-cache.cjs').requireCached(require('node:path').join(__dirname, '../dist/bundle/fast-read.cjs')),
      // `assets sync` from its own bundle, with its code cache likewise (#37).
      syncRun: () => require('./code-cache.cjs').requireCached(require('node:path').join(__dirname, '../dist/bundle/sync-run.cjs')),
      // `mutations apply` from its own bundle, with its code cache likewise (#37).
      applyRun: () => require('./code-cache.cjs').requireCached(require('node:path').join(__dirname, '../dist/bundle/apply-run.cjs')),
      // The whole CLI: main.js and the chunks it requires, CommonJS (scripts/bundle-commonjs.mjs, #37 session 8).
      // With the code cache the build made of each chunk for this Node (bin/code-cache.cjs requireChunksCached).
      whole: () => {
        require('./code-cache.cjs').requireChunksCached(require('node:path').join(__dirname, '../dist/bundle'));
        require('../dist/bundle/main.js');
      },
    },
  );
} catch (err) {
  notBuilt(err);
}

// A checkout that was never built (a packed tarball always is: prepack builds): a require of dist/bundle failed.
function notBuilt(err) {
  if (!(
    err &&
    /MODULE_NOT_FOUND/.test(err.code) &&
    /Cannot find module '[^']*dist[\\/]bundle[\\/](main\.js|route\.cjs|quick\.cjs|help-pages\.cjs|fast-read\.cjs|sync-run\.cjs|apply-run\.cjs)'/.test(err.message)
  ))
    throw err;
  process.stderr.write('adops: dist/bundle is missing: run `npm run build` in this checkout (or reinstall the package)\n');
  process.exitCode = 1;
}
