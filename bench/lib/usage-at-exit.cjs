// Preloaded by USAGE_ARGS (child-usage.js, `--require`): as the child exits it writes `peak-rss-kib=N` and
// `cpu-us=N` lines to stderr. CommonJS on purpose: an `--import` preload starts Node's ES module loader in a
// process whose entry would not (bin/adops.js is CommonJS and never starts it: fast-path-modules.test.ts), ~16 ms
// of CPU (`adops --version` 108 against 92 ms, medians of 20) and its memory, which users' runs do not pay.
'use strict';
const { ownPeakRssKib } = require('./own-peak-rss.cjs');

process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\npeak-rss-kib=${ownPeakRssKib()}\ncpu-us=${u.userCPUTime + u.systemCPUTime}\n`);
});
