// V8's code cache of `mutations apply`'s bundle (dist/bundle/apply-run.cjs), made after a real apply (#37 session
// 6), as code-cache-after-sync.mjs makes sync-run.cjs's after a sync: `node code-cache-after-apply.mjs <bundle>`,
// run by the Node that builds (scripts/build.mjs); the cache is written beside the bundle under this Node's
// version, where bin/code-cache.cjs looks. A cache made after the top level only holds set-up's functions; apply's
// own (argv, the config, the CSV's two passes, the journal and its lock, the client, the answer checks, the writer)
// would be compiled from source on every run. So this starts the sandbox (tsc's dist/, in-memory, loopback),
// applies one row through tsc's dist/ runner (so its journal records it), then runs the bundle's runApply on the
// file with that row and eight new ones: the resumed row's path (sent by an earlier run) and the sends' both run
// and are cached. The cache is written as the process exits (runApply ends the process).
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { cacheAfterCommand } from './code-cache-after-command.mjs';

const [bundle] = process.argv.slice(2);

// V8 stamps a code cache with a hash of its flags and refuses it under other flags. A file of changes sets one as it
// starts (--semi-space-growth-factor=1, client/young-generation.ts), so a cache written after it was refused by every
// run, which compiles the bundle before that (test/e2e/code-cache.test.ts). Here, where nine rows do not need the
// young generation held, the flags stay as a fresh process has them (for tsc's dist/ run too: its import('node:v8')
// is the ES module view, brought in line by syncBuiltinESMExports).
v8.setFlagsFromString = () => {};
syncBuiltinESMExports();

/** A CSV of renames of the demo world's campaigns (as bench/apply.js writes them), rows [0, n). */
const changes = (n) =>
  [
    'advertiserId,action,targetType,targetId,name',
    ...Array.from({ length: n }, (_, i) => `acc_acme_a_001,rename,campaign,${1000 + i},"Spring, week ${i}"`),
  ].join('\n') + '\n';
let file;
await cacheAfterCommand({
  bundle,
  name: 'apply',
  entry: 'runApply',
  prepare: (work) => {
    file = join(work, 'changes.csv');
    writeFileSync(file, changes(1));
    return ['mutations', 'apply', file, '--output', 'ndjson'];
  },
  // The row applied first is resumed (sent by an earlier run), eight are sent: both paths are cached.
  between: () => writeFileSync(file, changes(9)),
});
