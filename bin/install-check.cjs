#!/usr/bin/env node
// package.json "postinstall": says once, at install, when the sandbox will not
// run on this Node: Node before 22.15 has no complete node:sqlite, and the
// optional native module better-sqlite3 was not built (no prebuilt binary for
// this platform and no C++ toolchain or Node headers to compile it: npm drops an
// optional dependency that fails without a word). One line naming what is
// missing and saying that the client works. Never fails the install: every
// path exits 0.
//
// npm runs install scripts in the background and hides their output unless
// --foreground-scripts: the line goes to stderr when that is a terminal (run in
// the foreground), else to the terminal npm runs in (/dev/tty), else to stderr
// (CI logs show it with --foreground-scripts).
'use strict';

function completeNodeSqlite(version) {
  // node:sqlite with StatementSync#setAllowUnknownNamedParameters: 22.15+, 23.11+, 24+ (src/sandbox/store/sqlite.ts).
  const [major, minor] = version.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 15);
}

function betterSqliteLoads() {
  try {
    const Database = require('better-sqlite3');
    new Database(':memory:').close(); // the native binding is loaded here, not at require
    return true;
  } catch {
    return false;
  }
}

function say(line) {
  const fs = require('node:fs');
  if (process.stderr.isTTY) return void process.stderr.write(line);
  try {
    const fd = fs.openSync('/dev/tty', 'w');
    try {
      fs.writeSync(fd, line);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    process.stderr.write(line);
  }
}

try {
  if (!completeNodeSqlite(process.versions.node) && !betterSqliteLoads()) {
    say(
      `adops: the sandbox (\`adops sandbox serve\`, \`adops demo\`) needs SQLite: Node ${process.version} has no node:sqlite and the optional module better-sqlite3 could not be built here (no prebuilt binary, no C++ toolchain or Node headers); every client command works. For the sandbox: Node 22.15+, or the single executable, or python3, make and g++ then reinstall.\n`,
    );
  }
} catch {
  // a check, never a failure of the install
}
