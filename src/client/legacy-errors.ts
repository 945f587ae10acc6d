// Failure answers of the service from before 2026-09-24 (spec, Errors:
// "Behavior before 2026-09-24"), which deployments and recorded traffic still
// give: a schema mismatch was 422 with a framework-shaped body (`type` of
// `validation`, no `error`), a nonexistent path plain text `NOT_FOUND` (404).
// Read as today's codes so reports, hints and exit codes (7 and 4) agree.
import type { Issue } from '../contract/errors.js';

export interface LegacyFailure {
  code: string;
  message?: string;
  issues?: Issue[];
}

const asIssue = (e: unknown): Issue | undefined => {
  if (!e || typeof e !== 'object') return undefined;
  const o = e as Record<string, unknown>;
  const message = typeof o.message === 'string' ? o.message : typeof o.msg === 'string' ? o.msg : undefined;
  if (!message) return undefined;
  const where = typeof o.in === 'string' ? o.in : 'body';
  const path = typeof o.path === 'string' ? o.path : Array.isArray(o.loc) ? '/' + o.loc.map(String).join('/') : '';
  return { in: where as Issue['in'], path, message };
};

/** Today's code for an answer of the old generation; undefined for anything else. */
export function legacyFailure(status: number, body: unknown): LegacyFailure | undefined {
  if (status === 404 && typeof body === 'string' && body.trim() === 'NOT_FOUND') {
    return { code: 'not_found', message: 'No operation of this service answers this method and path (plain-text NOT_FOUND, as the service answered before 2026-09-24).' };
  }
  if (status === 422 && body && typeof body === 'object' && !('error' in body) && (body as { type?: unknown }).type === 'validation') {
    const b = body as Record<string, unknown>;
    const list = Array.isArray(b.errors) ? b.errors : Array.isArray(b.issues) ? b.issues : Array.isArray(b.detail) ? b.detail : [];
    const issues = list.map(asIssue).filter((i): i is Issue => i !== undefined);
    const said = typeof b.message === 'string' ? b.message : typeof b.title === 'string' ? b.title : 'Request validation failed';
    return { code: 'invalid_request', message: `${said} (a schema mismatch, answered 422 as before 2026-09-24)`, issues };
  }
  return undefined;
}
