// The operation table: every operation of the spec's operation list, once.
// Each operation is declared whole, schemas included, in its API's operation
// module (./operations/<api>.ts); `npm run gen` writes the same entries without
// their schemas to ./generated/operation-table.ts, which this file reads. One
// source for routes (sandbox), subcommands (CLI), OpenAPI and the coverage
// tests. Plain data (no zod) so the CLI can read it on its fast path; the zod
// schemas are in ./operation-schemas.ts, read from the modules.
import { OPERATION_TABLE } from './generated/operation-table.js';
import type { OperationSpec } from './operations/spec.js';

export type { ApiName, HttpMethod, OperationCli, OperationKind, OperationSpec } from './operations/spec.js';

/**
 * Every operation, keyed by its id, in the order the sandbox registers them
 * (API by API). The generated table is `as const`, so each path and method stays
 * literal (the typed client derives its input from them).
 */
export { OPERATION_TABLE };

export type OperationId = keyof typeof OPERATION_TABLE;

/** An operation with its id (stable operationId, also the OpenAPI operationId). */
export interface OperationDef extends OperationSpec {
  id: OperationId;
}

/** Whether a string names an operation of the table. */
export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(OPERATION_TABLE, id);
}

const OPERATION_IDS: readonly OperationId[] = Object.keys(OPERATION_TABLE).filter(isOperationId);

/** The table as a list in its order, each entry with its id. */
export const OPERATIONS: readonly OperationDef[] = OPERATION_IDS.map((id): OperationDef => ({ id, ...OPERATION_TABLE[id] }));

export const OPERATION_BY_ID: ReadonlyMap<string, OperationDef> = new Map(OPERATIONS.map((o) => [o.id, o]));

export function operation(id: string): OperationDef {
  const found = OPERATION_BY_ID.get(id);
  if (!found) throw new Error(`unknown operation id: ${id}`);
  return found;
}

/** Path params of a template, in order: '/a/{x}/b/{y}' -> ['x', 'y']. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * Fill a template, percent-encoding each value so '../', '?' or '#' cannot
 * reach another path or query. encodeURIComponent leaves '.' alone, so an id
 * of '.' or '..' would be a dot segment (`GET /assets/..` is `GET /`): those
 * are sent as '%2E' and '%2E%2E', one literal segment.
 */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter: ${name}`);
    if (value === '.' || value === '..') return value.replace(/\./g, '%2E');
    try {
      return encodeURIComponent(value);
    } catch {
      // A lone surrogate (JSON's "\ud800" in a file, an answer or an agent's arguments) has no UTF-8 form: say which
      // parameter, not encodeURIComponent's bare "URI malformed"; nothing is sent (no stand-in character: another id).
      throw new Error(`path parameter ${name} is not well-formed text (it holds a lone surrogate): ${JSON.stringify(value)}`);
    }
  });
}

/** The operation a method and concrete path name ('/assets/ast_1' -> getAsset), literal segments first. */
export function matchOperation(method: string, path: string): OperationDef | undefined {
  const segments = path.replace(/\/+$/, '').split('/');
  let best: { op: OperationDef; literals: number } | undefined;
  for (const op of OPERATIONS) {
    if (op.method !== method.toUpperCase()) continue;
    const template = op.path.split('/');
    if (template.length !== segments.length) continue;
    let literals = 0;
    const fits = template.every((t, i) => {
      if (t.startsWith('{')) return segments[i] !== '';
      literals++;
      return t === segments[i];
    });
    if (fits && (!best || literals > best.literals)) best = { op, literals };
  }
  return best?.op;
}
