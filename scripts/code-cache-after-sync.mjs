// V8's code cache of `assets sync`'s bundle (dist/bundle/sync-run.cjs), made after a real sync (#37), as
// code-cache-after-read.mjs makes fast-read.cjs's after a stored read: `node code-cache-after-sync.mjs <bundle>`,
// run by the Node that builds (scripts/build.mjs); the cache is written beside the bundle under this Node's
// version, where bin/code-cache.cjs looks. A cache made after the top level only holds set-up's functions; the
// sync's own (argv, the config, the client, the listing and its answer checks, the journal, hashing, the writer)
// were compiled from source on every run. So this starts the sandbox (tsc's dist/, in-memory, loopback), syncs
// one file through tsc's dist/ runner (so it is there), then runs the bundle's runSync on a directory holding
// that file and one new one: the re-run's path (already there) and the upload's (reserve, PUT, finalize) both run
// and are cached. The cache is written as the process exits (runSync ends the process).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { cacheAfterCommand } from './code-cache-after-command.mjs';

const [bundle] = process.argv.slice(2);
let dir;
await cacheAfterCommand({
  bundle,
  name: 'sync',
  entry: 'runSync',
  prepare: (work) => {
    dir = join(work, 'creatives');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.png'), png(1));
    return ['assets', 'sync', dir, '--output', 'ndjson'];
  },
  between: () => writeFileSync(join(dir, 'b.png'), png(2)),
});

/** A minimal PNG of width × 1 (as bench/sync.js makes them). */
function png(width) {
  const u32 = (n) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const chunk = (type, data) => {
    const body = Buffer.from([...Buffer.from(type, 'latin1'), ...data]);
    return [...u32(data.length), ...body, ...u32(crc32(body))];
  };
  return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk('IHDR', [...u32(width), ...u32(1), 8, 6, 0, 0, 0]), ...chunk('IEND', [])]);
}
