// A child's own peak RSS without /usr/bin/time: run Node with PEAK_RSS_ARGS
// before the script (or in NODE_OPTIONS, through nodeOptions) and the child
// writes `peak-rss-kib=N` to stderr at exit (process.exit included). Used by the
// memory benches and their tests. The same preload as the CPU benches'
// (child-usage.js, usage-at-exit.cjs: a `--require`, so a CommonJS entry runs
// without Node's ES module loader, as users run it).
//
// Why not `process.resourceUsage().maxRSS`: Linux carries ru_maxrss across
// execve, and a spawned child starts as a fork of its parent, so maxRSS is at
// least the parent's RSS when it spawned (a vitest worker holding a sandbox
// and a 120 MB string: 187 MiB reported for an 82 MiB child, CI 2026-12-03;
// a 300 MiB parent gave a 39 MiB child 303). VmHWM in /proc/self/status is
// the high-water mark of the process's own address space since exec; maxRSS
// is the fallback where /proc is absent (own-peak-rss.cjs).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** `--require` of a CommonJS file (usage-at-exit.cjs says why not `--import`); it also writes the CPU time. */
export const PEAK_RSS_ARGS = ['--require', fileURLToPath(new URL('./usage-at-exit.cjs', import.meta.url))];

/** NODE_OPTIONS of these arguments: Node splits it on spaces, so an argument holding one (a clone's path) is quoted. */
export const nodeOptions = (args) => args.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ');

/** This process's own peak RSS in KiB (for a script that reports itself). */
export const { ownPeakRssKib } = createRequire(import.meta.url)('./own-peak-rss.cjs');

/** The figure from a child's stderr, in KiB (NaN when absent). */
export const peakRssKib = (stderr) => Number(/peak-rss-kib=(\d+)/.exec(String(stderr))?.[1]);

/** A CSV of `rows` rows for `mutations apply`: renames, every one different (so no two rows share an identity). */
export function renameRows(rows, advertiserId = 'acc_acme_a_001') {
  const lines = ['advertiserId,action,targetType,targetId,name'];
  for (let i = 0; i < rows; i++) lines.push(`${advertiserId},rename,campaign,${1000 + (i % 50)},"Spring, week ${i}"`);
  return lines.join('\n') + '\n';
}
