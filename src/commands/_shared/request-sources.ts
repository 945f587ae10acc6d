// Where each part of a request body came from (a derived flag, `-f key`,
// `-F key`, the `--input` file), so a problem the contract's check finds
// (src/contract/request-check.ts) names what the person typed: `--amount`,
// `-f target.id`, `--input change.json at /target/id`.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { closest } from '../../cli/known-words.js';
import { dotted, type RequestIssue } from '../../contract/request-check.js';
import { valueAt } from '../../contract/validation-words.js';
import type { OperationId } from '../../contract/operations.js';

/** `target.id` → `/target/id` (a JSON Pointer). */
export const pointerOf = (key: string): string =>
  `/${key
    .split('.')
    .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
    .join('/')}`;

export class BodySources {
  private readonly given: Array<{ pointer: string; label: string }> = [];
  constructor(private readonly inputFile?: string) {}

  /** A value set at `pointer` by what `label` names; later ones override earlier ones. */
  set(pointer: string, label: string): void {
    this.given.push({ pointer, label });
  }

  /** What the person typed that holds `pointer`. */
  label(pointer: string): string {
    for (let i = this.given.length - 1; i >= 0; i--) {
      const g = this.given[i]!;
      if (g.pointer === pointer) return g.label;
      if (pointer.startsWith(`${g.pointer}/`)) return `${g.label} (${dotted(pointer)})`;
    }
    if (this.inputFile !== undefined) return `--input ${this.inputFile} at ${pointer || '/'}`;
    return pointer ? `field ${dotted(pointer)}` : 'the body';
  }

  /** Whether `pointer`'s value came from `-f` (text), where the schema may want JSON. */
  fromText(pointer: string): boolean {
    return this.label(pointer).startsWith('-f ');
  }
}

/** `, got "…"` after a problem: the text the person gave (cut at 40 characters). */
export const got = (v: unknown) => (typeof v === 'string' ? `, got "${v.length > 40 ? v.slice(0, 40) + '…' : v}"` : '');
const WANTS_JSON = /^must be (a number|a whole number|true or false|a list|an object|null)/;

/**
 * The contract's verdict on a body, for a person: names the schema does not list are warned
 * about (and sent: the service may be newer than this CLI); every other problem is a usage error
 * naming the flag, field or file it came from, and nothing is sent.
 */
export function reportBodyIssues(
  ctx: Pick<CommandContext, 'warn'>,
  opId: OperationId,
  body: Record<string, unknown>,
  issues: readonly RequestIssue[],
  sources: BodySources,
  flagOf: (field: string) => string | undefined,
): void {
  for (const i of issues.filter((x) => x.unknown)) {
    const name = dotted(i.pointer);
    const known = i.unknown!.known;
    const near = closest(name.split('.').pop()!, known);
    ctx.warn(
      `"${name}" is not a body field of ${opId}${near ? ` (did you mean "${near}"?)` : ''}; sending it anyway. Known: ${known.length ? known.join(', ') : 'none'}`,
    );
  }
  const refused = issues.filter((x) => !x.unknown);
  if (!refused.length) return;
  // A top-level field missing altogether: named by its flag, as before the check was the contract's.
  const missing = refused.filter((i) => /^\/[^/]+$/.test(i.pointer) && i.text.startsWith('is required') && valueAt(body, i.pointer) === undefined);
  const rest = refused.filter((i) => !missing.includes(i));
  const field = (i: RequestIssue) => dotted(i.pointer);
  if (!rest.length) {
    const names = missing.map(field);
    throw new UsageError(
      `missing ${names.map((n) => flagOf(n) ?? `field ${n}`).join(', ')}`,
      `${opId} needs ${names.join(', ')}; give ${names.length > 1 ? 'them' : 'it'} as flags, -F key=value or in --input`,
    );
  }
  const labelOf = (i: RequestIssue) => {
    if (i.pointer === '') return i.shape ?? 'the body';
    const l = sources.label(i.pointer);
    return l.startsWith('field ') && /^\/[^/]+$/.test(i.pointer) ? (flagOf(field(i)) ?? l) : l;
  };
  const lines = [...rest, ...missing].map((i) => `${labelOf(i)} ${i.text}${got(valueAt(body, i.pointer))}`);
  const textTyped = rest.some((i) => sources.fromText(i.pointer) && WANTS_JSON.test(i.text));
  throw new UsageError(
    lines.join('; '),
    textTyped ? 'nothing was sent; -f sends text, -F key=value sends JSON (50, true, null, [..], {..})' : 'nothing was sent',
  );
}
