// `adops __complete <words…> <current>` (the convention of cobra-based CLIs
// such as gh and kubectl): what may come next, one candidate per line. The
// shell scripts (src/cli/completion.ts) call it on every TAB. Fixed choices
// (subcommands, flags, output formats, --status values) need nothing but the
// registry and work offline. Ids (advertisers, brand/plan/skill slugs, asset
// and mutation ids) come from the service through the configured profile,
// cached ~60 s (complete-cache.ts). At a file position it prints the single
// line `:files` (or `:dirs`): the shell then completes file names itself.
// Ids and profile names come from outside: only those in the id alphabet are
// offered (sanitize.ts completionCandidate), so none can name a file position,
// a flag, a glob or a command substitution; the scripts quote what they insert too.
// It never prompts, never prints the key, gives up after about a second, and
// on any failure prints nothing and exits 0: a TAB must never hurt.
import type { Writable } from 'node:stream';
import { GLOBAL_OPTIONS, longName, type OptionSpec, type Registry } from './registry.js';
import { API_KEY_PREFIX } from '../contract/ids.js';
import { argChoices, argKind, flagKind, ID_SOURCES, type IdKind, type Kind } from './complete-kinds.js';
import { completionCandidate } from './output/sanitize.js';

export const COMPLETE_DEADLINE_MS = 900;

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
    if (isGroup && registry.children(pos.path).some((c) => c.name === w)) pos.path.push(w);
    else pos.positionals.push(w);
  }
  if (pending) pos.flag = pending;
  return pos;
}

/** What completes the current word without the service; `kind` when it needs the service or the shell. */
export function staticCandidates(registry: Registry, words: readonly string[], current: string): { values: string[]; kind?: Kind } {
  const pos = locate(registry, words);
  if (pos.flag) {
    if (pos.flag.choices) return { values: [...pos.flag.choices] };
    const kind = flagKind(longName(pos.flag.flags));
    return { values: [], ...(kind ? { kind } : {}) };
  }
  if (current.startsWith('-')) {
    const eq = current.indexOf('=');
    if (eq > 0) {
      // --output=js → --output=json
      const flag = current.slice(0, eq);
      const spec = optionsAt(registry, pos.path).find((o) => flagWords(o).includes(flag));
      return { values: (spec?.choices ?? []).map((c) => `${flag}=${c}`) };
    }
    const flags = optionsAt(registry, pos.path)
      .filter((o) => !o.hidden)
      .flatMap((o) => flagWords(o).filter((f) => f.startsWith('--')));
    return { values: [...flags, '--help'] };
  }
  const found = registry.find(pos.path);
  if (pos.path.length === 0 || (found.group && found.depth === pos.path.length)) {
    return { values: registry.children(pos.path).map((c) => c.name) };
  }
  const args = found.command?.args ?? [];
  const arg = args[pos.positionals.length] ?? (args.at(-1)?.variadic ? args.at(-1) : undefined);
  if (!arg) return { values: [] };
  const choices = argChoices(pos.path, arg.name);
  if (choices) return { values: [...choices] };
  const kind = argKind(pos.path, arg.name);
  return { values: [], ...(kind ? { kind } : {}) };
}

/** The ids of `kind` the service holds, through the profile the words name (cached ~60 s). The completion and the pickers use it. */
export async function idsFromService(kind: IdKind, env: Env, where: { profile?: string; baseUrl?: string }, signal: AbortSignal): Promise<string[]> {
  const [{ ConfigStore, configDir }, { resolveAuth }] = await Promise.all([import('../state/config-store.js'), import('../config/resolve.js')]);
  const dir = configDir(env);
  const store = new ConfigStore(dir);
  const auth = resolveAuth(store, env, { profile: where.profile, baseUrl: where.baseUrl });
  if (!auth.apiKey) return [];
  const { CompletionCache, cacheDir } = await import('../state/completion-cache.js');
  const cache = new CompletionCache(cacheDir(dir, { profile: auth.profile, baseUrl: auth.baseUrl, apiKey: auth.apiKey, organization: auth.organization }));
  // A cache written by an older adops may hold what the boundary now refuses.
  const cached = cache.read(kind);
  if (cached) return cached.filter((v) => completionCandidate(v) !== undefined);
  const [{ ApiClient }, { userAgent, packageVersion }] = await Promise.all([import('../client/http.js'), import('./version.js')]);
  const client = new ApiClient({
    baseUrl: auth.baseUrl,
    apiKey: auth.apiKey,
    userAgent: userAgent(packageVersion()),
    retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, budgetMs: 60_000 },
  });
  const source = ID_SOURCES[kind];
  const seen = new Set<string>();
  // The one paginator (a repeated cursor stops it); the rows read tolerantly: another deployment may differ.
  let page = 0;
  for await (const { rows } of client.pages(source.operation, {}, { pageSize: source.limit, signal })) {
    for (const r of rows) {
      const value: unknown = typeof r === 'object' && r !== null ? Object.entries(r).find(([k]) => k === source.field)?.[1] : undefined;
      if (typeof value === 'string') seen.add(value);
    }
    if (++page >= source.pages) break;
  }
  // Text from the server is untrusted: through the boundary (the id alphabet, nothing a shell would expand),
  // and never the key or anything shaped like one.
  const values = [...seen].filter((v) => completionCandidate(v) !== undefined && !v.includes(auth.apiKey!) && !v.includes(API_KEY_PREFIX)).sort();
  cache.write(kind, values);
  return values;
}

async function profiles(env: Env): Promise<string[]> {
  const { ConfigStore, configDir } = await import('../state/config-store.js');
  // Names from a file: the same boundary as ids from the service.
  return Object.keys(new ConfigStore(configDir(env)).read().profiles)
    .filter((name) => completionCandidate(name) !== undefined)
    .sort();
}

/** The candidates for `words` (the last one is the word being completed). */
export async function candidates(registry: Registry, words: readonly string[], env: Env, signal: AbortSignal): Promise<string[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const { values, kind } = staticCandidates(registry, before, current);
  if (kind === 'file') return [':files'];
  if (kind === 'dir') return [':dirs'];
  let all = values;
  if (kind === 'profile') all = await profiles(env);
  else if (kind) {
    const pos = locate(registry, before);
    all = await idsFromService(kind, env, { ...(pos.profile ? { profile: pos.profile } : {}), ...(pos.baseUrl ? { baseUrl: pos.baseUrl } : {}) }, signal);
  }
  return all.filter((v) => v.startsWith(current));
}

/** The whole of `adops __complete`: prints the candidates, or nothing; always 0. */
export async function complete(words: readonly string[], env: Env, out: Writable, loadRegistry: () => Promise<Registry>): Promise<number> {
  const controller = new AbortController();
  // The bound is on what the person waits for: Node's own start-up counts.
  // ADOPS_COMPLETE_TIMEOUT_MS moves it (slow links; tests on a loaded machine).
  const bound = Number(env.ADOPS_COMPLETE_TIMEOUT_MS) > 0 ? Number(env.ADOPS_COMPLETE_TIMEOUT_MS) : COMPLETE_DEADLINE_MS;
  const timer = setTimeout(() => controller.abort(), Math.max(250, bound - performance.now()));
  try {
    const registry = await loadRegistry();
    const found = await Promise.race([
      candidates(registry, words, env, controller.signal),
      new Promise<string[]>((resolve) => controller.signal.addEventListener('abort', () => resolve([]), { once: true })),
    ]);
    if (found.length) await new Promise<void>((resolve) => out.write(found.join('\n') + '\n', () => resolve()));
  } catch {
    // Nothing: a completion that cannot help stays silent.
  } finally {
    clearTimeout(timer);
  }
  return 0;
}
