// Checks a request part with the very schema the sandbox publishes and
// enforces, compiled by ajv at `npm run gen` time and loaded here lazily
// (`--help` never loads either file): a body or the headers against
// ./generated/request-validators.js (the stored reads never load it: they send
// no body), the path and query parameters against
// ./generated/parameter-validators.js (text, as they travel). Each problem
// comes back as a JSON Pointer into the part and words that follow the field's
// name; the CLI names the flag, argument or file the value came from. A name
// the schema does not list where it sits is reported apart (`unknown`): the
// service may be newer than this CLI, so that one is a warning, not a refusal.
import type { OperationId } from './operations.js';
import { escape, issuesOf, unescape, validatorsLoader, type AjvError, type ValidationIssue } from './validation-words.js';

export type RequestIssue = ValidationIssue;

export type RequestPart = 'body' | 'headers' | 'params' | 'query';

const load = validatorsLoader(() => import('./generated/request-validators.js'));

let parameters: Promise<typeof import('./generated/parameter-validators.js')> | undefined;
const loadParameters = () => (parameters ??= import('./generated/parameter-validators.js'));

/** Every problem with `value` as `operationId`'s `part`; [] when it can be sent as it is. */
export async function checkRequest(operationId: OperationId, part: RequestPart, value: unknown): Promise<RequestIssue[]> {
  if (part === 'params' || part === 'query') return parameterIssues(`${operationId}_${part}`, value);
  return (await requestChecker(operationId, part))(value);
}

/**
 * checkRequest of a body or the headers as a synchronous function, the validators loaded once: for a file of
 * changes, checked row by row twice (#37: four awaited calls a row before).
 */
export async function requestChecker(operationId: OperationId, part: 'body' | 'headers'): Promise<(value: unknown) => RequestIssue[]> {
  const key = `${operationId}_${part}`;
  const mod = await load();
  const validate = mod[key];
  if (typeof validate !== 'function') return () => [];
  return (value) => (validate(value) ? [] : issuesOf(validate.errors ?? [], value, mod.SHAPES?.[key]));
}

/**
 * Each parameter's text against its own validator, and the names the operation requires. A parameter the
 * operation does not list is not looked at (the service ignores it; the caller warns about it).
 */
async function parameterIssues(key: string, value: unknown): Promise<RequestIssue[]> {
  const part = (await loadParameters()).PARAMETERS[key];
  if (!part || value === null || typeof value !== 'object') return [];
  const given = new Map(Object.entries(value));
  const issues: RequestIssue[] = part.required
    .filter((name) => given.get(name) === undefined)
    .map((name) => ({ pointer: `/${escape(name)}`, text: 'is required' }));
  for (const [name, text] of given) {
    const validate = part.fields[name];
    if (text === undefined || !validate || validate(text)) continue;
    for (const issue of issuesOf(wireWords(validate.errors ?? []), text)) issues.push({ ...issue, pointer: `/${escape(name)}${issue.pointer}` });
  }
  return issues;
}

/**
 * A number's text that fails its pattern (request-schemas.ts wireForm: the text is checked first, then the
 * number) and also its type or bounds: the type or bound is said ("must be at least 1" for `0`, not the
 * pattern `^[1-9][0-9]{0,14}$`); the pattern alone only when the number itself would do (`1e2`, ` 5`).
 */
function wireWords(errors: AjvError[]): AjvError[] {
  const textPattern = (e: AjvError) => e.keyword === 'pattern' && e.schemaPath === '#/allOf/0/pattern';
  return errors.some((e) => !textPattern(e)) ? errors.filter((e) => !textPattern(e)) : errors;
}

/** `/target/id` → `target.id` (how -f names a nested field). */
export function dotted(pointer: string): string {
  return pointer.split('/').slice(1).map(unescape).join('.');
}
