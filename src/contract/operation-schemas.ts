// Each operation's request schemas (path params, query, headers, body) and 2xx
// body, keyed by its id: the `schemas` of the operation modules' entries
// (./operations/<api>.ts), which the sandbox and the CLI read. The sandbox
// validates with these schemas (its routes and the OpenAPI documents are built
// from them), and the CLI derives its flags, argument checks, --help,
// completions and "unknown field" warnings from them, through the plain JSON
// that src/contract/operation-inputs.ts emits (so `--help` loads no zod).
// A test checks that this map and the published OpenAPI documents agree.
import { isOperationId, type OperationId } from './operations.js';
import { OPERATION_ENTRIES } from './operations/all.js';
import type { OperationEntry } from './operations/entry.js';
import type { OperationSchemas } from './operations/schemas-shape.js';

export type { OperationSchemas } from './operations/schemas-shape.js';

/** Each entry's schemas under its id, each keeping its own schema types (the sandbox's handlers and the typed client derive theirs from them). */
function schemasById<M extends Readonly<Record<string, OperationEntry>>>(entries: M): { readonly [K in keyof M]: M[K]['schemas'] };
function schemasById(entries: Readonly<Record<string, OperationEntry>>): Readonly<Record<string, OperationSchemas>> {
  return Object.fromEntries(Object.entries(entries).map(([id, entry]) => [id, entry.schemas]));
}

/**
 * Exhaustive: an id of the (generated) table that no module declares is a compile error; an id a module
 * declares that the table lacks fails the staleness test (regenerate: npm run gen).
 */
export const OPERATION_SCHEMAS = schemasById(OPERATION_ENTRIES) satisfies { readonly [K in OperationId]: OperationSchemas };

/** The schemas of an operation named by a string (undefined when the table has no such id). */
export function schemasOf(id: string): OperationSchemas | undefined {
  return isOperationId(id) ? OPERATION_SCHEMAS[id] : undefined;
}
