// Checks a request part (a body, the headers) with the very schema the
// sandbox publishes and enforces, compiled by ajv at `npm run gen` time
// (./generated/request-validators.ts, loaded here lazily: `--help` and the
// stored reads never load it). Each problem comes back as a JSON Pointer into
// the part and words that follow the field's name; the CLI names the flag or
// file the value came from. A name the schema does not list where it sits is
// reported apart (`unknown`): the service may be newer than this CLI, so that
// one is a warning, not a refusal.
import type { OperationId } from './operations.js';
import { issuesOf, unescape, validatorsLoader, type ValidationIssue } from './validation-words.js';

export type RequestIssue = ValidationIssue;

export type RequestPart = 'body' | 'headers';

const load = validatorsLoader(() => import('./generated/request-validators.js'));

/** Every problem with `value` as `operationId`'s `part`; [] when it can be sent as it is. */
export async function checkRequest(operationId: OperationId, part: RequestPart, value: unknown): Promise<RequestIssue[]> {
  const mod = await load();
  const key = `${operationId}_${part}`;
  const validate = mod[key];
  if (typeof validate !== 'function') return [];
  if (validate(value)) return [];
  return issuesOf(validate.errors ?? [], value, mod.SHAPES?.[key]);
}

/** `/target/id` → `target.id` (how -f names a nested field). */
export function dotted(pointer: string): string {
  return pointer.split('/').slice(1).map(unescape).join('.');
}
