// Pickers for people: on a terminal, a required argument, or an id flag given
// without its value (`observe campaigns --live`), is chosen from a searchable
// list of the organization's own ids, from the same sources (and cache) as
// shell completion. Only the runner calls these, and only when prompts are
// allowed; off a terminal or with --no-input nothing here runs and the usage
// error stays as it was.
import { argKind, flagKind, isIdKind, type IdKind } from './complete-kinds.js';
import { idsFromService, locate, optionsAt } from './complete.js';
import type { Prompter } from './prompter.js';
import { longName, type Registry } from './registry.js';

export interface PickerContext {
  env: Record<string, string | undefined>;
  prompter: Prompter;
  signal: AbortSignal;
  /** --profile / --base-url of the run: the ids come from that service. */
  where: { profile?: string; baseUrl?: string };
}

/** A searchable choice of the ids of `kind`; a plain question when the service lists none (or cannot). */
export async function pick(kind: IdKind, label: string, p: PickerContext): Promise<string> {
  let ids: string[] = [];
  try {
    ids = await idsFromService(kind, p.env, p.where, AbortSignal.any([p.signal, AbortSignal.timeout(10_000)]));
  } catch {
    // The command itself will meet the same service and say what is wrong.
  }
  if (ids.length === 0) return (await p.prompter.text(`${label}:`)).trim();
  return p.prompter.choose(`${label}:`, ids);
}

/** The picker for a missing required argument, when it names ids; undefined when it does not. */
export function argPicker(path: readonly string[], arg: string): IdKind | undefined {
  const kind = argKind(path, arg);
  return isIdKind(kind) ? kind : undefined;
}

/** `argv` with a picked value after each id flag that has none (last, or followed by another flag). */
export async function pickFlagValues(registry: Registry, argv: readonly string[], p: Omit<PickerContext, 'where'>): Promise<string[]> {
  const end = argv.indexOf('--');
  const head = end === -1 ? argv : argv.slice(0, end);
  const pos = locate(registry, head);
  const options = optionsAt(registry, pos.path);
  const out: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const token = head[i]!;
    out.push(token);
    const spec = options.find((o) => o.flags.split(/[ ,]+/).includes(token));
    const kind = spec && /</.test(spec.flags) ? flagKind(longName(spec.flags)) : undefined;
    const next = head[i + 1];
    if (!isIdKind(kind) || (next !== undefined && !next.startsWith('-'))) continue;
    const where = { ...(pos.profile ? { profile: pos.profile } : {}), ...(pos.baseUrl ? { baseUrl: pos.baseUrl } : {}) };
    out.push(await pick(kind, `${kind} (${token})`, { ...p, where }));
  }
  return end === -1 ? out : [...out, ...argv.slice(end)];
}
