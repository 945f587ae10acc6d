// Turns zod failures into the spec's `issues` ({in, path, message}). Messages
// are written here from the issue's kind, never copied from zod: zod's own
// messages may quote the received value, and the spec says the answer never
// repeats what was sent. Shared by the request validators (http/validation.ts),
// the fault settings (providers/faults.ts) and the fixture checks.
import type { z } from 'zod';
import type { Issue, IssueLocation } from '../../contract/errors.js';

/** RFC 6901: '~' → '~0', '/' → '~1'. The empty path is the whole part. */
export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((seg) => '/' + String(seg).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** zod's own (English) messages; anything else was written by a schema author and is kept. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (big|small)|Unrecognized)/;

function describe(issue: z.core.$ZodIssue, missing: boolean): string {
  if (missing) return 'is required';
  // A message the schema's author wrote (e.g. `.regex(re, { message: 'must be a slug' })`)
  // says more than ours; authors must not quote input in it (the fuzz test checks).
  if (issue.code !== 'unrecognized_keys' && issue.message && !ZOD_DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'array' && issue.path.length === 0 ? 'must be an array' : `must be ${article(issue.expected)}`;
    case 'too_small':
      return bound(issue.origin, 'at least', issue.minimum, issue.inclusive);
    case 'too_big':
      return bound(issue.origin, 'at most', issue.maximum, issue.inclusive);
    case 'invalid_format':
      if (issue.format === 'starts_with' && 'prefix' in issue) return `must start with ${String(issue.prefix)}`;
      if (issue.format === 'ends_with' && 'suffix' in issue) return `must end with ${String(issue.suffix)}`;
      if (issue.format === 'regex') return 'does not have the expected format';
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'is not an allowed field';
    case 'invalid_union':
      return 'does not match any allowed form';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an element that is not allowed';
    case 'invalid_value':
      // The allowed values are ours (an enum or literal), never what was sent.
      return `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'custom':
      return 'is not allowed';
    default:
      return 'is not valid';
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function bound(origin: string, word: string, n: number | bigint, inclusive?: boolean): string {
  const value = inclusive === false ? `${word === 'at least' ? 'more than' : 'less than'} ${String(n)}` : `${word} ${String(n)}`;
  switch (origin) {
    case 'string':
      return `must be ${value} characters long`;
    case 'array':
    case 'set':
      return `must have ${value} items`;
    default:
      return `must be ${value}`;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    const next: unknown = Reflect.get(cur, seg);
    cur = next;
  }
  return cur;
}

/** zod error → issues of one request part. Unrecognized keys become one issue per key. */
export function zodIssuesToIssues(error: z.ZodError, location: IssueLocation, input: unknown): Issue[] {
  return cappedIssues(error, location, input, Infinity).issues;
}

/**
 * The first `max` issues and how many there are in all: a body of a million unknown keys
 * costs a count, not a million entries (issue 9).
 */
export function cappedIssues(error: z.ZodError, location: IssueLocation, input: unknown, max: number): { issues: Issue[]; total: number } {
  const out: Issue[] = [];
  let total = 0;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      total += issue.keys.length;
      for (const key of issue.keys.slice(0, Math.max(0, max - out.length))) {
        out.push({ in: location, path: jsonPointer([...issue.path, key]), message: 'is not an allowed field' });
      }
      continue;
    }
    total++;
    if (out.length >= max) continue;
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined && issue.path.length > 0;
    out.push({ in: location, path: jsonPointer(issue.path), message: describe(issue, missing) });
  }
  return { issues: out, total };
}
