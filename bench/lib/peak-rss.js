// A child's own peak RSS without /usr/bin/time: run Node with these arguments
// before the script (or in NODE_OPTIONS: hence no spaces, no double quotes, no
// `%` or `#` in the data: URL) and the child writes `peak-rss-kib=N` to stderr
// at exit (process.exit included). Used by the memory benches and their tests.
//
// Why not `process.resourceUsage().maxRSS`: Linux carries ru_maxrss across
// execve, and a spawned child starts as a fork of its parent, so maxRSS is at
// least the parent's RSS when it spawned (a vitest worker holding a sandbox
// and a 120 MB string: 187 MiB reported for an 82 MiB child, CI 2026-12-03;
// a 300 MiB parent gave a 39 MiB child 303). VmHWM in /proc/self/status is
// the high-water mark of the process's own address space since exec; maxRSS
// is the fallback where /proc is absent.
import { createRequire } from 'node:module';

export const OWN_PEAK_RSS_KIB =
  "(()=>{try{return(parseInt(readFileSync('/proc/self/status','latin1').split('VmHWM:')[1])||process.resourceUsage().maxRSS)}catch{return(process.resourceUsage().maxRSS)}})()";
/** The import OWN_PEAK_RSS_KIB needs, first in a data: URL that uses it. */
export const OWN_PEAK_RSS_IMPORT = "import{readFileSync}from'node:fs';";

export const PEAK_RSS_ARGS = [
  '--import',
  `data:text/javascript,${OWN_PEAK_RSS_IMPORT}process.on('exit',()=>process.stderr.write(String.fromCharCode(10)+'peak-rss-kib='+${OWN_PEAK_RSS_KIB}+String.fromCharCode(10)))`,
];

/** This process's own peak RSS in KiB (for a script that reports itself), as OWN_PEAK_RSS_KIB measures it. */
export const { ownPeakRssKib } = createRequire(import.meta.url)('./own-peak-rss.cjs');

/** The figure from a child's stderr, in KiB (NaN when absent). */
export const peakRssKib = (stderr) => Number(/peak-rss-kib=(\d+)/.exec(String(stderr))?.[1]);

/** A CSV of `rows` rows for `mutations apply`: renames, every one different (so no two rows share an identity). */
export function renameRows(rows, advertiserId = 'acc_acme_a_001') {
  const lines = ['advertiserId,action,targetType,targetId,name'];
  for (let i = 0; i < rows; i++) lines.push(`${advertiserId},rename,campaign,${1000 + (i % 50)},"Spring, week ${i}"`);
  return lines.join('\n') + '\n';
}
