// Checks a value against what an operation accepts (a FieldInput read off the
// contract's schemas), before anything is sent: a wrong type, a missing
// prefix, an impossible date or an unknown choice is a usage error naming the
// argument, not a round trip that answers 400 (or, worse, a silent default).
import type { FieldInput } from '../contract/operation-inputs.js';

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function patternProblem(pattern: string, text: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return undefined; // a pattern JavaScript cannot read: leave it to the service
  }
  if (re.test(text)) return undefined;
  const prefix = /^\^([A-Za-z0-9_-]+)(?:\.\*)?$/.exec(pattern)?.[1];
  return prefix ? `must start with ${prefix}` : `must match ${pattern}`;
}

function stringProblem(f: FieldInput, text: string): string | undefined {
  if (f.enum && !f.enum.includes(text)) return `must be one of ${f.enum.join(', ')}`;
  if (f.format === 'date' && !isCalendarDate(text)) return 'must be a real calendar date YYYY-MM-DD';
  if (f.format === 'uri' && !URL.canParse(text)) return 'must be a URL';
  if (f.minLength !== undefined && text.length < f.minLength) return f.minLength === 1 ? 'cannot be empty' : `must be at least ${f.minLength} characters`;
  if (f.maxLength !== undefined && text.length > f.maxLength) return `must be at most ${f.maxLength} characters`;
  if (f.pattern) return patternProblem(f.pattern, text);
  return undefined;
}

function numberProblem(f: FieldInput, n: number): string | undefined {
  if (!Number.isFinite(n)) return 'must be a number';
  if (f.type === 'integer' && !Number.isInteger(n)) return 'must be a whole number';
  if (f.enum && !f.enum.includes(n)) return `must be one of ${f.enum.join(', ')}`;
  if (f.minimum !== undefined && n < f.minimum) return `must be at least ${f.minimum}`;
  if (f.maximum !== undefined && n > f.maximum && f.maximum < Number.MAX_SAFE_INTEGER) return `must be at most ${f.maximum}`;
  return undefined;
}

/** What is wrong with `value` for field `f` (a JSON value, as it would be sent), or undefined. */
export function valueProblem(f: FieldInput, value: unknown): string | undefined {
  if (value === null) return f.nullable ? undefined : 'cannot be null';
  switch (f.type) {
    case 'string':
      return typeof value === 'string' ? stringProblem(f, value) : 'must be a string';
    case 'integer':
    case 'number':
      return typeof value === 'number' ? numberProblem(f, value) : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'array':
      return Array.isArray(value) ? undefined : 'must be a list';
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'must be an object';
    default:
      return undefined;
  }
}

/**
 * What is wrong with a query value (always text on the wire). A field the
 * schema types as a number must read as one.
 */
export function queryProblem(f: FieldInput, text: string): string | undefined {
  if (f.type === 'integer' || f.type === 'number') {
    if (!/^-?\d+(\.\d+)?$/.test(text)) return f.type === 'integer' ? 'must be a whole number' : 'must be a number';
    return numberProblem(f, Number(text));
  }
  if (f.type === 'boolean') return text === 'true' || text === 'false' ? undefined : 'must be true or false';
  if (f.type === 'array') return undefined;
  return stringProblem(f, text);
}

/**
 * A string typed by a person (a flag's value, `-f key=value`) as the JSON the
 * field wants: '50' -> 50 for a number, 'true' -> true, 'null' -> null where
 * null is allowed. Text that does not convert stays text, and the check then
 * names the problem.
 */
export function fromText(f: FieldInput | undefined, text: string): unknown {
  if (!f) return text;
  if (f.nullable && text === 'null') return null;
  if ((f.type === 'integer' || f.type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text.trim())) return Number(text);
  if (f.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (f.type === 'array')
    return text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => (f.items === 'integer' || f.items === 'number' ? Number(s) : s));
  return text;
}

/** The closest known name to a mistyped one (case-insensitive, then edit distance <= 2). */
export function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const exact = known.find((k) => k.toLowerCase() === lower);
  if (exact) return exact;
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d <= 2 && (!best || d < best.d)) best = { k, d };
  }
  return best?.k;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return row[b.length]!;
}

/** Whether `value` is one of `list` (a closed set of words: shells, formats, keys), narrowing it without a cast. */
export function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}
