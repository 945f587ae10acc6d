// What the environment says about this run's terminals, decided here once (#26):
// for the entry decision (route.ts: may a stored read run without the spinner and
// prompt machinery?) and for the runner (run.ts: prompts, pickers, spinners,
// colour). It imports nothing: bin/adops.js loads it inside dist/bundle/route.cjs.

type Env = Readonly<Record<string, string | undefined>>;

/** A switch variable that is on: set to anything but '', '0' or 'false' (any case). */
export function flagSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** A CI run (GitHub Actions, GitLab and most runners set CI): no prompt, spinner or colour, whatever the terminals. */
export function isCi(env: Env): boolean {
  return flagSet(env.CI);
}

/**
 * TERM=dumb: a terminal that understands no escape sequence (Emacs' shell buffer, some CI log viewers):
 * no colour (format.ts chooseColor) and no spinner, which redraws its line with them.
 */
export function dumbTerminal(env: Env): boolean {
  return env.TERM === 'dumb';
}

/**
 * A terminal's stderr outside CI: a spinner may turn there (and, with stdin a terminal too, a prompt or a picker).
 * The terminal may be asked lazily (the launcher's node:tty costs a few ms): only when CI is not set.
 */
export function drawsOnStderr(env: Env, stderrIsTTY: boolean | (() => boolean)): boolean {
  return !isCi(env) && (typeof stderrIsTTY === 'function' ? stderrIsTTY() : stderrIsTTY);
}

/** Prompts and pickers allowed: stdin and stderr are terminals, outside CI, and --no-input was not given. */
export function canPrompt(env: Env, stdinIsTTY: boolean, stderrIsTTY: boolean, noInput: boolean): boolean {
  return stdinIsTTY && drawsOnStderr(env, stderrIsTTY) && !noInput;
}
