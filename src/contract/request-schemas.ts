// What each operation's request body (and headers) must be, as the JSON Schema
// the sandbox publishes for it, compiled by ajv into standalone validators:
// `npm run gen` writes ./generated/request-validators.ts, which the CLI loads
// (lazily, only when a command sends a body) to check the whole request before
// sending: nested fields, unions and bounds included. Dev-time only (zod, ajv):
// nothing at run time imports this file, only the code it writes.
import { Ajv, _ } from 'ajv';
import { createRequire } from 'node:module';
import { transformSync } from 'esbuild';
import { z } from 'zod';
import { OPERATIONS } from './operations.js';
import { schemasOf } from './operation-schemas.js';
import * as requestFormats from './request-formats.js';

// A CommonJS module whose module.exports is the function (TypeScript's NodeNext reading of its default differs).
const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone') as (ajv: Ajv, refs: Record<string, string>) => string;

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Words for people (descriptions, examples) do not check anything; dropped so the validators stay small. */
const PROSE = new Set(['description', 'examples', 'example', 'default', 'title', '$schema', 'id']);

function withoutProse(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutProse);
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    // (A property named `id` sits inside `properties`, whose keys are kept below.)
    if (PROSE.has(k)) continue;
    out[k] = k === 'properties' && isNode(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, withoutProse(s)])) : withoutProse(v);
  }
  return out;
}

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
function tagged(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tagged);
  if (!isNode(node)) return node;
  const out: Node = Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === 'properties' && isNode(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, tagged(s)])) : tagged(v),
    ]),
  );
  const tag = Array.isArray(out.oneOf) ? tagOf(out.oneOf) : undefined;
  if (tag) out.discriminator = { propertyName: tag };
  return out;
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
  const json = withoutProse(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  const out = tagged(json);
  if (!isNode(out)) throw new Error('a request schema is a JSON object');
  return out;
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

const HEADER = `// @ts-nocheck
/* eslint-disable */
// Written by \`npm run gen\` (src/contract/request-schemas.ts): ajv's standalone validators of each
// operation's request body and headers, from the JSON Schemas the sandbox publishes. Do not edit.
// Loaded lazily by src/contract/request-check.ts, only when a command sends a body.
import * as requestFormats from '../request-formats.js';
`;

/** The source of ./generated/request-validators.ts. */
export function requestValidatorsSource(): string {
  const schemas = requestSchemas();
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    discriminator: true,
    // zod counts a string's length in UTF-16 units (String.length), so the checks do too.
    unicode: false,
    logger: false,
    code: { source: true, esm: true, lines: false, formats: _`require("../request-formats.js")` },
    formats: { date: requestFormats.date, uri: requestFormats.uri },
  });
  for (const [key, schema] of Object.entries(schemas)) ajv.addSchema(schema, key);
  const code = standaloneCode(ajv, Object.fromEntries(Object.keys(schemas).map((k) => [k, k])))
    .replace(/^"use strict";/, '')
    .split('require("../request-formats.js")')
    .join('requestFormats');
  if (code.includes('require(')) throw new Error('request validators: the standalone code still calls require()');
  const shapeFacts = Object.fromEntries(Object.entries(schemas).map(([k, s]) => [k, facts(s)]));
  // Minified: a command that sends a body parses it once per run (about half the size unminified).
  const small = transformSync(`export const SHAPES = ${JSON.stringify(shapeFacts)};\n${code}`, { minify: true, format: 'esm', target: 'node20' }).code;
  return `${HEADER}${small}`;
}
