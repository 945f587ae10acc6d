// One timed run of a command, for the start-up benches: wall time and CPU time
// (user + system) of that child alone. Node has no public API for a child's
// rusage, so bash runs it: $EPOCHREALTIME around the command (wall, µs) and the
// `times` builtin after it (CPU of the shell's waited children, which is the
// command and nothing else: both are written to fd 3, the command's own
// stdout and stderr stay pipes, as in a script). bash's own start is outside
// both figures.
import { spawnSync } from 'node:child_process';

const SCRIPT = 's=$EPOCHREALTIME; "$@"; rc=$?; e=$EPOCHREALTIME; { echo "$s $e $rc"; times; } >&3';

const seconds = (t) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

/** Runs argv (argv[0] is the program) with env; returns wall and CPU ms, the exit status, stdout and stderr. */
export function timedRun(argv, env) {
  const r = spawnSync('bash', ['-c', SCRIPT, 'bash', ...argv], { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const [head, , children] = String(r.output[3]).trim().split('\n');
  const [start, end, rc] = (head ?? '').split(' ');
  const [user, sys] = (children ?? '').trim().split(/\s+/);
  return {
    wallMs: (Number(end) - Number(start)) * 1000,
    cpuMs: (seconds(user) + seconds(sys)) * 1000,
    status: Number(rc),
    stdout: r.stdout,
    stderr: String(r.stderr),
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The environment the benches run children in: no NODE_OPTIONS, no NODE_EXTRA_CA_CERTS (~100 ms per node start alone). */
export function cleanEnv(extra = {}) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ...extra };
}
