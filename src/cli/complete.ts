// `adops __complete <words…> <current>` (the convention of cobra-based CLIs
// such as gh and kubectl): what may come next, one candidate per line. The
// shell scripts (src/cli/completion.ts) call it on every TAB; zsh and fish call
// `adops __complete-describe`, which adds a tab and a description after each
// candidate (a subcommand's or flag's summary, an id's name), bash takes ids
// only. Fixed choices (subcommands, flags, output formats, --status values)
// need nothing but the registry. At a file position it prints the single line
// `:files` (or `:dirs`): the shell then completes file names itself.
//
// Ids (advertisers, brand/plan/skill slugs, asset and mutation ids) come from
// the completion cache of the profile the line names, and a TAB never waits
// for the service: it prints what the cache holds at once, fresh or stale,
// and when that is older than its life (a minute) or missing, starts a
// detached refresh (`adops __complete-refresh`, complete-refresh.ts) that
// fills it for the next TAB. A cold cache answers nothing the first time;
// the TAB a second or two later has the ids. Only where the cache cannot be
// kept at all (a config dir the disk refuses) does the TAB ask the service
// itself, within COMPLETE_DEADLINE_MS.
//
// Ids, names and profile names come from outside: only ids in the id alphabet
// are offered (sanitize.ts completionCandidate), so none can name a file
// position, a flag, a glob or a command substitution; a description is one
// masked line without controls (completionDescription) and the scripts hand
// it to the shell as data. It never prompts, never prints the key, and on any
// failure prints nothing and exits 0: a TAB must never hurt.
import type { Writable } from 'node:stream';
import { GLOBAL_OPTIONS, longName, type OptionSpec, type Registry } from './registry.js';
import { argChoices, argKind, flagKind, type IdKind, type Kind } from './complete-kinds.js';
import { completionCandidate, completionDescription } from './output/sanitize.js';
import type { CacheEntry } from '../state/completion-cache.js';
import type { CompletionScope } from './complete-scope.js';

/** Where no cache can be kept, the TAB asks the service itself for at most this long (from its own start). */
export const COMPLETE_DEADLINE_MS = 300;

type Env = Record<string, string | undefined>;

/** Where the words leave us: the command or group reached, the flags given, and what the current word is. */
export interface Position {
  path: string[];
  /** A flag waiting for its value (the current word is that value). */
  flag?: OptionSpec;
  positionals: string[];
  /** --profile and --base-url given on the line: completion asks that service. */
  profile?: string;
  baseUrl?: string;
}

const takesValue = (o: OptionSpec) => /[<[]/.test(o.flags) && o.type !== 'boolean';
const flagWords = (o: OptionSpec) => o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-'));

/** The options in force at `path`: a command's, a group's default verb's, and the global ones. */
export function optionsAt(registry: Registry, path: readonly string[]): OptionSpec[] {
  const found = registry.find(path);
  const command = found.command ?? (found.group?.defaultCommand ? registry.find([...path, found.group.defaultCommand]).command : undefined);
  return [...(command?.options ?? []), ...GLOBAL_OPTIONS];
}

/**
 * The subcommands under `path` (groups, and commands not hidden), by name. Not registry.children(): that sorts with
 * localeCompare, whose first call loads ICU's collator (~70 ms, most of a TAB) for command words that are ASCII.
 */
function childrenAt(registry: Registry, path: readonly string[]): Array<{ name: string; description: string }> {
  const under = (p: readonly string[]) => p.length === path.length + 1 && path.every((w, i) => p[i] === w);
  const all = [...registry.groups.filter((g) => under(g.path)), ...registry.commands.filter((c) => under(c.path) && !c.hidden)];
  return all.map((c) => ({ name: c.path[path.length]!, description: c.description })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function locate(registry: Registry, words: readonly string[]): Position {
  const pos: Position = { path: [], positionals: [] };
  let pending: OptionSpec | undefined;
  for (const w of words) {
    if (pending) {
      const name = longName(pending.flags);
      if (name === 'profile') pos.profile = w;
      if (name === 'base-url') pos.baseUrl = w;
      pending = undefined;
      continue;
    }
    if (w.startsWith('-') && w !== '-') {
      const [flag, value] = w.split('=', 2) as [string, string | undefined];
      const spec = optionsAt(registry, pos.path).find((o) => flagWords(o).includes(flag));
      if (spec && takesValue(spec) && value === undefined) pending = spec;
      continue;
    }
    const found = registry.find(pos.path);
    const isGroup = pos.path.length === 0 || (found.group !== undefined && found.depth === pos.path.length);
    if (isGroup && childrenAt(registry, pos.path).some((c) => c.name === w)) pos.path.push(w);
    else pos.positionals.push(w);
  }
  if (pending) pos.flag = pending;
  return pos;
}

/** A candidate and what zsh and fish show beside it ('' for none). */
export type Candidate = CacheEntry;

const plain = (id: string): Candidate => ({ id, description: '' });

/** What completes the current word without the service; `kind` when it needs the service or the shell. */
export function staticCandidates(registry: Registry, words: readonly string[], current: string): { values: Candidate[]; kind?: Kind } {
  const pos = locate(registry, words);
  if (pos.flag) {
    if (pos.flag.choices) return { values: pos.flag.choices.map(plain) };
    const kind = flagKind(longName(pos.flag.flags));
    return { values: [], ...(kind ? { kind } : {}) };
  }
  if (current.startsWith('-')) {
    const eq = current.indexOf('=');
    if (eq > 0) {
      // --output=js → --output=json
      const flag = current.slice(0, eq);
      const spec = optionsAt(registry, pos.path).find((o) => flagWords(o).includes(flag));
      return { values: (spec?.choices ?? []).map((c) => plain(`${flag}=${c}`)) };
    }
    const flags = optionsAt(registry, pos.path)
      .filter((o) => !o.hidden)
      .flatMap((o) =>
        flagWords(o)
          .filter((f) => f.startsWith('--'))
          .map((id) => ({ id, description: completionDescription(o.description) })),
      );
    return { values: [...flags, { id: '--help', description: 'Show help' }] };
  }
  const found = registry.find(pos.path);
  if (pos.path.length === 0 || (found.group && found.depth === pos.path.length)) {
    return { values: childrenAt(registry, pos.path).map((c) => ({ id: c.name, description: completionDescription(c.description) })) };
  }
  const args = found.command?.args ?? [];
  const arg = args[pos.positionals.length] ?? (args.at(-1)?.variadic ? args.at(-1) : undefined);
  if (!arg) return { values: [] };
  const choices = argChoices(pos.path, arg.name);
  if (choices) return { values: choices.map(plain) };
  const kind = argKind(pos.path, arg.name);
  return { values: [], ...(kind ? { kind } : {}) };
}

type Where = { profile?: string; baseUrl?: string };

/**
 * The ids of `kind` the service holds, with their names, for the pickers: the cache while fresh, else asked now
 * (and cached). A TAB never calls this: it reads the cache and leaves the asking to a background refresh.
 */
export async function idsFromService(kind: IdKind, env: Env, where: Where, signal: AbortSignal): Promise<string[]> {
  const { openCache, completionClient } = await import('./complete-scope.js');
  const scope = await openCache(env, where);
  if (!scope) return [];
  const cached = scope.cache.read(kind);
  if (cached?.fresh) return cleanEntries(cached.entries).map((e) => e.id);
  const { fetchEntries } = await import('./complete-sources.js');
  const client = await completionClient(scope.auth, env, { maxAttempts: 1, budgetMs: 60_000 });
  const entries = await fetchEntries(kind, client, signal);
  scope.cache.write(kind, entries);
  return entries.map((e) => e.id);
}

/** A cache written by an older adops (or by hand) may hold what the boundary now refuses: through it again. */
function cleanEntries(entries: readonly CacheEntry[]): Candidate[] {
  return entries.filter((e) => completionCandidate(e.id) !== undefined).map((e) => ({ id: e.id, description: completionDescription(e.description) }));
}

/**
 * What a TAB offers for ids of `kind`: the cache as it is, at once. A stale or cold cache starts the background
 * refresh (unless one started within the retry interval); a cache that cannot be kept at all is bypassed: then,
 * and only then, the TAB asks the service itself, within its bound.
 */
async function idsForTab(kind: IdKind, env: Env, where: Where): Promise<Candidate[]> {
  const { openCache } = await import('./complete-scope.js');
  const scope = await openCache(env, where);
  if (!scope) return [];
  const cached = scope.cache.read(kind);
  if (cached?.fresh) return cleanEntries(cached.entries);
  if (scope.cache.refreshDue(kind)) {
    // The note is written first: a disk that refuses it would refuse the refresh's answer too.
    if (!scope.cache.noteRefresh(kind, process.pid)) {
      if (cached) return cleanEntries(cached.entries);
      return askNow(kind, scope, env);
    }
    const pid = await startRefresh({ kind, ...where }, env);
    if (pid !== undefined) scope.cache.noteRefresh(kind, pid);
  }
  return cached ? cleanEntries(cached.entries) : [];
}

/** The TAB asks the service itself (no cache can be kept): bounded, one attempt, nothing on any failure. */
async function askNow(kind: IdKind, scope: CompletionScope, env: Env): Promise<Candidate[]> {
  // ADOPS_COMPLETE_TIMEOUT_MS moves the bound (a slow link; tests on a loaded machine).
  const bound = Number(env.ADOPS_COMPLETE_TIMEOUT_MS) > 0 ? Number(env.ADOPS_COMPLETE_TIMEOUT_MS) : COMPLETE_DEADLINE_MS;
  const signal = AbortSignal.timeout(bound);
  const [{ completionClient }, { fetchEntries }] = await Promise.all([import('./complete-scope.js'), import('./complete-sources.js')]);
  const client = await completionClient(scope.auth, env, { maxAttempts: 1, budgetMs: bound });
  return Promise.race([
    fetchEntries(kind, client, signal),
    new Promise<Candidate[]>((resolve) => signal.addEventListener('abort', () => resolve([]), { once: true })),
  ]);
}

/** Spawn `adops __complete-refresh …` detached (its own session, stdio ignored, not waited for); its pid. */
async function startRefresh(request: { kind: IdKind; profile?: string; baseUrl?: string }, env: Env): Promise<number | undefined> {
  const [{ spawn }, { refreshArgs }] = await Promise.all([import('node:child_process'), import('./complete-refresh.js')]);
  const self = await selfCommand();
  const [file, ...args] = self;
  const child = spawn(file, [...args, '__complete-refresh', ...refreshArgs(request)], {
    detached: true,
    stdio: 'ignore',
    // The key stays where it was (the environment or the config file), never argv.
    env,
    windowsHide: true,
  });
  child.on('error', () => undefined); // a refresh that cannot start leaves the cache as it is
  child.unref();
  return child.pid;
}

/** How to run adops again: Node with bin/adops.js beside this module (source or bundle), or, in a single executable, itself. */
async function selfCommand(): Promise<[string, ...string[]]> {
  const [{ existsSync }, { fileURLToPath }] = await Promise.all([import('node:fs'), import('node:url')]);
  try {
    const script = fileURLToPath(new URL('../../bin/adops.js', import.meta.url));
    if (existsSync(script)) return [process.execPath, script];
  } catch {
    // No module URL (a CommonJS bundle): see below.
  }
  return [process.execPath];
}

async function profiles(env: Env): Promise<Candidate[]> {
  const { ConfigStore, configDir } = await import('../state/config-store.js');
  // Names from a file: the same boundary as ids from the service; the description is the profile's service.
  return Object.entries(new ConfigStore(configDir(env)).read().profiles)
    .filter(([name]) => completionCandidate(name) !== undefined)
    .map(([name, p]) => ({ id: name, description: completionDescription(p.baseUrl ?? '') }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The candidates for `words` (the last one is the word being completed). */
export async function candidates(registry: Registry, words: readonly string[], env: Env): Promise<Candidate[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const { values, kind } = staticCandidates(registry, before, current);
  if (kind === 'file') return [plain(':files')];
  if (kind === 'dir') return [plain(':dirs')];
  let all = values;
  if (kind === 'profile') all = await profiles(env);
  else if (kind) {
    const pos = locate(registry, before);
    all = await idsForTab(kind, env, { ...(pos.profile ? { profile: pos.profile } : {}), ...(pos.baseUrl ? { baseUrl: pos.baseUrl } : {}) });
  }
  return all.filter((v) => v.id.startsWith(current));
}

/**
 * `adops __complete WORDS…` (ids only: bash) and `adops __complete-describe WORDS…` (each candidate, a tab and its
 * description, when it has one: zsh and fish): prints the candidates, or nothing; always 0.
 */
export async function complete(words: readonly string[], env: Env, out: Writable, loadRegistry: () => Promise<Registry>, describe = false): Promise<number> {
  try {
    const found = await candidates(await loadRegistry(), words, env);
    const lines = found.map((c) => (describe && c.description ? `${c.id}\t${c.description}` : c.id));
    if (lines.length) await new Promise<void>((resolve) => out.write(lines.join('\n') + '\n', () => resolve()));
  } catch {
    // Nothing: a completion that cannot help stays silent.
  }
  return 0;
}

/** The entry for the three hidden words (route.ts sends them here with argv whole). */
export async function completeEntry(argv: readonly string[], env: Env, out: Writable, loadRegistry: () => Promise<Registry>): Promise<number> {
  if (argv[0] === '__complete-refresh') {
    const { exitAfterDeadline, refresh } = await import('./complete-refresh.js');
    exitAfterDeadline();
    return refresh(argv.slice(1), env);
  }
  return complete(argv.slice(1), env, out, loadRegistry, argv[0] === '__complete-describe');
}
