// A child's peak RSS without /usr/bin/time: run Node with these arguments
// before the script (or in NODE_OPTIONS: hence no spaces, no double quotes)
// and the child writes `peak-rss-kib=N` to stderr at exit (process.exit
// included). Used by bench/apply-memory.js and its test.
export const PEAK_RSS_ARGS = [
  '--import',
  "data:text/javascript,process.on('exit',()=>process.stderr.write(String.fromCharCode(10)+'peak-rss-kib='+process.resourceUsage().maxRSS+String.fromCharCode(10)))",
];

/** The figure from a child's stderr, in KiB (NaN when absent). */
export const peakRssKib = (stderr) => Number(/peak-rss-kib=(\d+)/.exec(String(stderr))?.[1]);

/** A CSV of `rows` rows for `mutations apply`: renames, every one different (so no two rows share an identity). */
export function renameRows(rows, advertiserId = 'acc_acme_a_001') {
  const lines = ['advertiserId,action,targetType,targetId,name'];
  for (let i = 0; i < rows; i++) lines.push(`${advertiserId},rename,campaign,${1000 + (i % 50)},"Spring, week ${i}"`);
  return lines.join('\n') + '\n';
}
