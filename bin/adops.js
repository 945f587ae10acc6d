#!/usr/bin/env node
// The `adops` command (package.json "bin"). CommonJS on purpose (bin/package.json
// says so; the rest of the package is ESM): `--version` and the help pages
// are answered here, by a require of package.json or of dist/bundle/quick.cjs
// (with the group and command pages the build rendered, help-pages.cjs, #16),
// without starting Node's ESM loader (~20 more internal modules: as an ES
// module this file put `--version` over its 1.3x-of-bare-node budget, issue #4).
// A stored list runs from dist/bundle/fast-read.cjs, also required (#16);
// everything else imports the ESM bundle (`npm run build` writes dist/bundle/).
'use strict';

const argv = process.argv.slice(2);
const version = () => require('../package.json').version;
let text;
if (argv[0] === '__complete') text = undefined; // shell completion: its words are not ours to answer
else if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) text = version() + '\n';
else if (argv.length === 0 || argv.some((a) => a === '-h' || a === '--help' || a === 'help' || a === '-V' || a === '--version')) {
  try {
    text = require('../dist/bundle/quick.cjs').quickAnswer(argv, version, (first) => require('../dist/bundle/help-pages.cjs').helpPages(first));
  } catch (err) {
    text = notBuilt(err);
  }
}
if (text !== undefined) print(text);
else if (argv[0] === 'observe' && !environmentDeclines(process.env)) {
  // A stored list (`observe campaigns --json`, the loop of many scripts) runs from its own CommonJS
  // bundle (#16); what it declines (false: nothing written, nothing sent) goes to the whole CLI.
  let fast;
  try {
    fast = require('../dist/bundle/fast-read.cjs');
  } catch (err) {
    notBuilt(err);
  }
  if (fast) fast.runFast(argv).then((ran) => ran || whole());
} else whole();

// What rules the stored-read bundle out before it is loaded (it asks again itself, environmentDeclines in
// src/commands/observe/fast-read.ts): a terminal's stderr outside CI (a spinner, a prompt), a proxy variable.
function environmentDeclines(env) {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return (!ci && require('node:tty').isatty(2)) || ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY'].some((name) => env[name] !== undefined);
}

function whole() {
  import('../dist/bundle/main.js').catch(notBuilt);
}

// A checkout that was never built (a packed tarball always is: prepack builds).
function notBuilt(err) {
  if (!(
    err &&
    /MODULE_NOT_FOUND/.test(err.code) &&
    /Cannot find module '[^']*dist[\\/]bundle[\\/](main\.js|quick\.cjs|help-pages\.cjs|fast-read\.cjs)'/.test(err.message)
  ))
    throw err;
  process.stderr.write('adops: dist/bundle is missing: run `npm run build` in this checkout (or reinstall the package)\n');
  process.exitCode = 1;
  return '';
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
