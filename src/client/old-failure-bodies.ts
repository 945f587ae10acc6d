// Failure answers of the service from before 2026-09-24 (spec, Errors:
// "Behavior before 2026-09-24"), which deployments and recorded traffic still
// give: a schema mismatch was 422 with a framework-shaped body (`type` of
// `validation`, no `error`), a nonexistent path plain text `NOT_FOUND` (404).
// Read as today's codes so reports, hints and exit codes (7 and 4) agree.
import { ISSUE_LOCATIONS, type Issue, type IssueLocation } from '../contract/errors.js';

export interface OldFailure {
  code: string;
  message?: string;
  issues?: Issue[];
}

const PLACES: readonly string[] = ISSUE_LOCATIONS;
const isPlace = (v: unknown): v is IssueLocation => typeof v === 'string' && PLACES.includes(v);

/** A field of an object, or undefined (the body is untyped JSON). */
const field = (o: object, name: string): unknown => (Object.hasOwn(o, name) ? Object.getOwnPropertyDescriptor(o, name)?.value : undefined);
const text = (o: object, name: string): string | undefined => {
  const v = field(o, name);
  return typeof v === 'string' ? v : undefined;
};

const asIssue = (e: unknown): Issue | undefined => {
  if (!e || typeof e !== 'object') return undefined;
  const message = text(e, 'message') ?? text(e, 'msg');
  if (!message) return undefined;
  const where = field(e, 'in');
  const loc = field(e, 'loc');
  const path = text(e, 'path') ?? (Array.isArray(loc) ? '/' + loc.map(String).join('/') : '');
  return { in: isPlace(where) ? where : 'body', path, message };
};

/** Today's code for an answer of the old generation; undefined for anything else. */
export function oldFailure(status: number, body: unknown): OldFailure | undefined {
  if (status === 404 && typeof body === 'string' && body.trim() === 'NOT_FOUND') {
    return {
      code: 'not_found',
      message: 'No operation of this service answers this method and path (plain-text NOT_FOUND, as the service answered before 2026-09-24).',
    };
  }
  if (status === 422 && body && typeof body === 'object' && !('error' in body) && field(body, 'type') === 'validation') {
    const list = [field(body, 'errors'), field(body, 'issues'), field(body, 'detail')].find(Array.isArray) ?? [];
    const issues = list.map(asIssue).filter((i): i is Issue => i !== undefined);
    const said = text(body, 'message') ?? text(body, 'title') ?? 'Request validation failed';
    return { code: 'invalid_request', message: `${said} (a schema mismatch, answered 422 as before 2026-09-24)`, issues };
  }
  return undefined;
}
