// This process's own peak RSS in KiB: VmHWM in /proc/self/status (the high-water mark since exec), not
// ru_maxrss (peak-rss.js says why); maxRSS only where /proc is absent. CommonJS, so that usage-at-exit.cjs (a
// `--require` preload) and peak-rss.js (ESM, through createRequire) share it.
'use strict';
const { readFileSync } = require('node:fs');

exports.ownPeakRssKib = function ownPeakRssKib() {
  try {
    return parseInt(readFileSync('/proc/self/status', 'latin1').split('VmHWM:')[1]) || process.resourceUsage().maxRSS;
  } catch {
    return process.resourceUsage().maxRSS;
  }
};
