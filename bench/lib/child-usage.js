// A child's own resource usage at exit, for the bulk benches (apply, sync):
// run Node with USAGE_ARGS before the script and the child writes
// `peak-rss-kib=N` and `cpu-us=N` lines to stderr as it exits (process.exit
// included). The CPU figure is user + system time of that process alone, every
// thread of it (libuv's pool included) and nothing of the sandbox it talks to,
// which is another process: it is what the client takes from a machine the
// two share. (Node has no API for a finished child's rusage; this asks the
// child itself, from `process.resourceUsage()`.) The peak RSS is the child's
// own since exec, not its maxRSS: peak-rss.js says why.
import { PEAK_RSS_ARGS, peakRssKib } from './peak-rss.js';

/**
 * Before the script: the memory benches' preload (peak-rss.js), which writes the CPU time too. In NODE_OPTIONS
 * (which splits on spaces) a path with a space goes in double quotes, as Node reads them there: peak-rss.js nodeOptions.
 */
export const USAGE_ARGS = PEAK_RSS_ARGS;

/** The child's peak RSS (KiB) and CPU time (ms) from its stderr; NaN when absent. */
export function childUsage(stderr) {
  const text = String(stderr);
  return { rssKib: peakRssKib(text), cpuMs: Number(/cpu-us=(\d+)/.exec(text)?.[1]) / 1000 };
}
