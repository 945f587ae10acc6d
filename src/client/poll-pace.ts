// How far apart --wait's polls are, and an upload's wait for ready (flows/upload-steps.ts): the one place that
// says it (the flag's help reads it from here).
//
// With --interval given, every poll is that far from the last (at least 0.05 s). Without it, the
// first poll after the start comes at 0.25 s and the gaps double to 2 s: most changes end in well
// under 2 s, and a fixed 2 s made every --wait (and every MCP call with wait) last at least 2 s
// for a change the service finished in 0.5 s. A long wait still polls every 2 s, as before; a short
// one sends at most three polls more.

/** The gap polls settle at, in seconds, when --interval is not given. */
export const DEFAULT_POLL_SECONDS = 2;
/** The first gap, in seconds, when --interval is not given. */
export const FIRST_POLL_SECONDS = 0.25;

export interface PollPace {
  /** The gap between polls, once settled (ms). */
  intervalMs: number;
  /** The first gap (ms), doubling up to intervalMs; absent: every gap is intervalMs. */
  firstMs?: number | undefined;
}

/** The pace for `--interval <seconds>` (undefined: not given). */
export function pollPace(intervalSeconds: number | undefined): PollPace {
  if (intervalSeconds !== undefined) return { intervalMs: Math.max(0.05, intervalSeconds) * 1000 };
  return { intervalMs: DEFAULT_POLL_SECONDS * 1000, firstMs: FIRST_POLL_SECONDS * 1000 };
}

/** The gap before poll number `n + 1` (n = 0 after the first poll). */
export const pollGapMs = (pace: PollPace, n: number): number =>
  pace.firstMs === undefined ? pace.intervalMs : Math.min(pace.intervalMs, pace.firstMs * 2 ** n);

/** The --interval flag's help, from the figures above. */
export const INTERVAL_HELP = `time between polls with --wait (default: ${FIRST_POLL_SECONDS} s at first, doubling to ${DEFAULT_POLL_SECONDS})`;
