// What each operation's success answer must be, as the JSON Schema the sandbox
// publishes for it (its `response`), compiled by the one validator engine
// (./validator-build.ts): `npm run gen` writes ./generated/response-validators.ts,
// which ./response-check.ts loads lazily when a flow is about to act on an
// answer. A tolerant reader's schema: a field the contract does not name passes
// (the real service may be newer than this CLI), so a closed object is opened
// and a oneOf (whose shapes overlap once open) reads as anyOf; everything the
// contract does name is checked: required fields, types, nulls, enums, formats.
// Dev-time only (zod, ajv): nothing at run time imports this file.
import { z } from 'zod';
import { OPERATIONS } from './operations.js';
import { schemasOf } from './operation-schemas.js';
import { isNode, mapNode, publishedSchema, standaloneSource, type Node } from './validator-build.js';

/** Unknown fields pass; shapes that overlap once open are alternatives, not exclusive. */
function tolerant(node: Node): Node {
  const { additionalProperties, oneOf, ...rest } = node;
  const out: Node = { ...rest };
  if (additionalProperties !== undefined && additionalProperties !== false) out.additionalProperties = additionalProperties;
  if (oneOf !== undefined) out.anyOf = oneOf;
  return nullableAsType(out);
}

/**
 * `anyOf: [{type: T, ...rules}, {type: 'null'}]` (how zod writes `.nullable()`) as `type: [T, 'null']`
 * with the same rules: one check where ajv would write two alternatives and their error bookkeeping
 * (the generated code is several times smaller), the same verdicts.
 */
function nullableAsType(node: Node): Node {
  const alts: unknown = node.anyOf;
  if (!Array.isArray(alts) || alts.length !== 2 || Object.keys(node).length !== 1) return node;
  const nul = alts.findIndex((a: unknown) => isNode(a) && a.type === 'null' && Object.keys(a).length === 1);
  const other: unknown = alts[1 - nul];
  if (nul === -1 || !isNode(other) || typeof other.type !== 'string' || other.$ref !== undefined) return node;
  const out: Node = { ...other, type: [other.type, 'null'] };
  const words: unknown = other.enum;
  if (Array.isArray(words)) out.enum = words.concat([null]);
  if (other.const !== undefined) {
    delete out.const;
    out.enum = [other.const, null];
  }
  return out;
}

/** `#/$defs/Name` inside one schema as a schema of its own, `Name`, shared by every answer that holds it. */
function sharedDefs(schemas: Record<string, Node>): Record<string, Node> {
  const defs: Record<string, Node> = {};
  const out: Record<string, Node> = {};
  for (const [key, schema] of Object.entries(schemas)) {
    const { $defs, ...rest } = schema;
    for (const [name, def] of Object.entries(isNode($defs) ? $defs : {})) {
      if (!isNode(def)) continue;
      if (defs[name] !== undefined && JSON.stringify(defs[name]) !== JSON.stringify(def)) throw new Error(`response schemas: two shapes are named ${name}`);
      defs[name] = def;
    }
    out[key] = rest;
  }
  const relinked = (n: Node): Node => (typeof n.$ref === 'string' ? { ...n, $ref: n.$ref.replace('#/$defs/', '') } : n);
  return Object.fromEntries(
    [...Object.entries(defs).map(([name, def]) => [name, { $id: name, ...def }] as const), ...Object.entries(out)].map(([k, v]) => [k, mapNode(v, relinked)]),
  );
}

const withoutDefs = ({ $defs: _defs, ...rest }: Node): Node => rest;

/** Every operation's 2xx body schema, keyed `<operationId>_response` (the validators' export names). */
export function responseSchemas(): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const op of OPERATIONS) {
    const response = schemasOf(op.id)?.response;
    if (!response) continue;
    const schema = mapNode(publishedSchema(response, 'output'), tolerant);
    // A named shape (a Skill, an Asset) answered whole is one definition every operation answering it refers to.
    const name = z.globalRegistry.get(response)?.id;
    const named = name !== undefined && schema.$ref !== `#/$defs/${name}`;
    out[`${op.id}_response`] = named
      ? { $ref: `#/$defs/${name}`, $defs: { ...(isNode(schema.$defs) ? schema.$defs : {}), [name]: withoutDefs(schema) } }
      : schema;
  }
  return sharedDefs(out);
}

const HEADER = `/* eslint-disable */
// Written by \`npm run gen\` (src/contract/response-schemas.ts): ajv's standalone validators of each
// operation's success answer, from the JSON Schemas the sandbox publishes, opened to fields they do not
// name. Do not edit. Loaded lazily by src/contract/response-check.ts, when a flow acts on an answer.
`;

/** The source of ./generated/response-validators.ts. */
export function responseValidatorsSource(): string {
  // A shape many answers hold (a row, a Skill) is one function they all call, not a copy in each.
  return standaloneSource(responseSchemas(), HEADER, '', { inlineRefs: false });
}
