#!/usr/bin/env node
// The sandbox's prebuilt demo world (#16, src/sandbox/fixtures/snapshot.ts):
// the store as loading the demo world leaves it, written to
// dist/bundle/demo-world.db, where the bundle's sandbox chunk looks for it
// and package.json "files" ships it. Run by scripts/build.mjs after tsc (it
// imports tsc's dist/). Where no SQLite can be had here (better-sqlite3 not
// built), the build goes on without it and the sandbox generates the world.
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../dist/bundle/demo-world.db', import.meta.url));
const { writeDemoSnapshot } = await import('../dist/sandbox/fixtures/snapshot-build.js');
try {
  writeDemoSnapshot(target);
} catch (err) {
  if (err?.name !== 'SqliteUnavailableError') throw err;
  console.warn(`build: no prebuilt demo world (${err.message}); the sandbox will generate it at start`);
}
