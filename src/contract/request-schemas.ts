// What each operation's request body (and headers) must be, as the JSON Schema
// the sandbox publishes for it, compiled by the one validator engine
// (./validator-build.ts) into standalone validators: `npm run gen` writes
// ./generated/request-validators.ts, which the CLI loads (lazily, only when a
// command sends a body) to check the whole request before sending: nested
// fields, unions and bounds included. Dev-time only (zod, ajv): nothing at run
// time imports this file, only the code it writes.
import type { z } from 'zod';
import { OPERATIONS } from './operations.js';
import { schemasOf } from './operation-schemas.js';
import { isNode, mapNode, publishedSchema, standaloneSource, type Node } from './validator-build.js';

/** The field whose constant tells a union's object shapes apart (a mutation's `action`), if one does. */
function tagOf(shapes: unknown[]): string | undefined {
  const first = shapes[0];
  if (!isNode(first) || !isNode(first.properties)) return undefined;
  return Object.keys(first.properties).find((k) =>
    shapes.every(
      (s) =>
        isNode(s) &&
        isNode(s.properties) &&
        isNode(s.properties[k]) &&
        s.properties[k].const !== undefined &&
        Array.isArray(s.required) &&
        s.required.includes(k),
    ),
  );
}

/** ajv's `discriminator` on every tagged oneOf: it then checks the one shape the tag names, and its errors are that shape's. */
function tagged(node: Node): Node {
  const tag = Array.isArray(node.oneOf) ? tagOf(node.oneOf) : undefined;
  return tag ? { ...node, discriminator: { propertyName: tag } } : node;
}

/** Which names each place of a request takes, for words about a field the schema does not list. */
export interface RequestShapeFacts {
  /** Instance location (`''`, `/budget`, `/lineItems/*`) → every property name a shape lists there. */
  names: Record<string, string[]>;
  /** Instance location of a union of shapes told apart by a tag field → the tag and, per value, the names that shape takes. */
  tags: Record<string, { by: string; shapes: Record<string, string[]> }>;
}

function facts(root: Node): RequestShapeFacts {
  const out: RequestShapeFacts = { names: {}, tags: {} };
  collectNames(root, '', isNode(root.$defs) ? root.$defs : {}, out, 0);
  return out;
}

const deref = (node: unknown, defs: Node): unknown => (isNode(node) && typeof node.$ref === 'string' ? defs[node.$ref.replace('#/$defs/', '')] : node);

function collectNames(node: unknown, at: string, defs: Node, out: RequestShapeFacts, depth: number): void {
  if (!isNode(node) || depth > 32) return;
  if (typeof node.$ref === 'string') collectNames(deref(node, defs), at, defs, out, depth + 1);
  for (const k of ['oneOf', 'anyOf', 'allOf']) {
    const shapes = node[k];
    if (!Array.isArray(shapes)) continue;
    const resolved = shapes.map((s) => deref(s, defs));
    const tag = k === 'oneOf' ? tagOf(resolved) : undefined;
    if (tag) {
      const byValue: Record<string, string[]> = {};
      for (const s of resolved) {
        const value = isNode(s) && isNode(s.properties) ? s.properties[tag] : undefined;
        if (isNode(s) && isNode(s.properties) && isNode(value)) byValue[String(value.const)] = Object.keys(s.properties);
      }
      out.tags[at] = { by: tag, shapes: byValue };
    }
    for (const s of resolved) collectNames(s, at, defs, out, depth + 1);
  }
  if (isNode(node.properties)) {
    out.names[at] = [...new Set([...(out.names[at] ?? []), ...Object.keys(node.properties)])];
    for (const [p, s] of Object.entries(node.properties)) collectNames(s, `${at}/${p}`, defs, out, depth + 1);
  }
  if (node.items !== undefined) collectNames(node.items, `${at}/*`, defs, out, depth + 1);
}

/** The published JSON Schema of one request part, ready for ajv: no prose, tagged unions marked. */
export function requestPartSchema(schema: z.ZodType): Node {
  return mapNode(publishedSchema(schema, 'input'), tagged);
}

export type RequestPart = 'body' | 'headers';

/** Every operation's body and headers schemas, keyed `<operationId>_<part>` (the validators' export names). */
export function requestSchemas(): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const op of OPERATIONS) {
    const s = schemasOf(op.id);
    if (s?.body) out[`${op.id}_body`] = requestPartSchema(s.body);
    if (s?.headers) out[`${op.id}_headers`] = requestPartSchema(s.headers);
  }
  return out;
}

const HEADER = `/* eslint-disable */
// Written by \`npm run gen\` (src/contract/request-schemas.ts): ajv's standalone validators of each
// operation's request body and headers, from the JSON Schemas the sandbox publishes. Do not edit.
// Loaded lazily by src/contract/request-check.ts, only when a command sends a body.
`;

/** The source of ./generated/request-validators.ts. */
export function requestValidatorsSource(): string {
  const schemas = requestSchemas();
  const shapeFacts = Object.fromEntries(Object.entries(schemas).map(([k, s]) => [k, facts(s)]));
  return standaloneSource(schemas, HEADER, `export const SHAPES = ${JSON.stringify(shapeFacts)};\n`);
}
