// What a flow's step may act on: each answer view (./answer-views.ts) as a
// JSON Schema, the operation's published success schema projected onto the
// fields the step reads, compiled by the one validator engine
// (./validator-build.ts): `npm run gen` writes ./generated/response-validators.js,
// which ./response-check.ts loads lazily when a flow is about to act on an
// answer. Each field read is checked whole, as the contract says it (its type,
// null, enum, format, bounds and nested fields), and required as the contract
// requires it (unless the read says `?`); a field the step does not read is
// not in the view, so the real service may differ there, or add fields.
// Dev-time only (zod, ajv): nothing at run time imports this file.
import { ANSWER_VIEWS, parseRead, type AnswerView, type ReadStep } from './answer-views.js';
import { schemasOf } from './operation-schemas.js';
import { isNode, mapNode, publishedSchema, standaloneSource, type Node } from './validator-build.js';

/** A field the contract does not name passes (in what a step reads whole too, e.g. an error object); shapes that overlap once open are alternatives. */
function tolerant(node: Node): Node {
  const { additionalProperties, oneOf, ...rest } = node;
  const out: Node = { ...rest };
  if (additionalProperties !== undefined && additionalProperties !== false) out.additionalProperties = additionalProperties;
  if (oneOf !== undefined) out.anyOf = oneOf;
  return out;
}

/**
 * `anyOf: [{type: T, ...rules}, {type: 'null'}]` (how zod writes `.nullable()`) as `type: [T, 'null']` with
 * the same rules: the same verdicts in one check, where ajv writes two alternatives and their bookkeeping.
 */
function nullableAsType(node: Node): Node {
  const alts: unknown = node.anyOf;
  if (!Array.isArray(alts) || alts.length !== 2 || Object.keys(node).length !== 1) return node;
  const nul = alts.findIndex((a: unknown) => isNode(a) && a.type === 'null' && Object.keys(a).length === 1);
  const other: unknown = alts[1 - nul];
  if (nul === -1 || !isNode(other) || typeof other.type !== 'string' || other.type === 'object' || other.type === 'array') return node;
  const out: Node = { ...other, type: [other.type, 'null'] };
  const words: unknown = other.enum;
  if (Array.isArray(words)) out.enum = words.concat([null]);
  if (other.const !== undefined) {
    delete out.const;
    out.enum = [other.const, null];
  }
  return out;
}

/** Every `$ref` replaced by what it names (the contract's schemas have no cycles), so a projection can cut anywhere. */
function inlined(root: Node): Node {
  const defs = isNode(root.$defs) ? root.$defs : {};
  const walk = (node: Node, depth: number): Node => {
    if (depth > 32) throw new Error('response schemas: $ref nesting too deep');
    return mapNode(node, (n) => {
      if (typeof n.$ref !== 'string') return n;
      const { $ref, ...rest } = n;
      const target = defs[$ref.replace('#/$defs/', '')];
      if (!isNode(target)) throw new Error(`response schemas: ${$ref} names nothing`);
      return { ...walk(target, depth + 1), ...rest };
    });
  };
  const { $defs: _defs, ...rest } = walk(root, 0);
  return rest;
}

/** The object (or list) alternatives of a schema that may also be null: `anyOf: [X, {type: null}]`, or X itself. */
function alternatives(s: Node): { shapes: Node[]; nullable: boolean } {
  const anyOf: unknown = s.anyOf;
  if (!Array.isArray(anyOf)) return { shapes: [s], nullable: Array.isArray(s.type) && s.type.includes('null') };
  const shapes = anyOf.filter((a): a is Node => isNode(a) && a.type !== 'null');
  return { shapes, nullable: shapes.length < anyOf.length };
}

interface Read {
  steps: ReadStep[];
  optional: boolean;
}

/** `schema` cut down to what `reads` reach; a read that ends here keeps its field's schema whole. */
function project(schema: Node, reads: readonly Read[], where: string): Node {
  if (reads.some((r) => r.steps.length === 0)) return schema;
  const { shapes, nullable } = alternatives(schema);
  const projected = shapes.map((shape) => projectObject(shape, reads, where));
  const alts = nullable ? [...projected, { type: 'null' }] : projected;
  return alts.length === 1 ? alts[0]! : { anyOf: alts };
}

function projectObject(shape: Node, reads: readonly Read[], where: string): Node {
  const properties = isNode(shape.properties) ? shape.properties : undefined;
  if (!properties) throw new Error(`response schemas: ${where} is not an object with fields`);
  const required: unknown = shape.required;
  const byField = new Map<string, Read[]>();
  for (const r of reads) byField.set(r.steps[0]!.field, [...(byField.get(r.steps[0]!.field) ?? []), r]);
  const out: Node = { type: 'object', properties: {}, required: [] as string[] };
  const props: Node = {};
  const needed: string[] = [];
  for (const [field, list] of byField) {
    const prop = properties[field];
    if (!isNode(prop)) throw new Error(`response schemas: ${where}.${field} is not in the contract`);
    const each = list[0]!.steps[0]!.each;
    const rest = list.map((r) => ({ steps: r.steps.slice(1), optional: r.optional }));
    props[field] = each ? projectList(prop, rest, `${where}.${field}[]`) : project(prop, rest, `${where}.${field}`);
    const optional = list.every((r) => r.optional && r.steps.length === 1);
    if (!optional && Array.isArray(required) && required.includes(field)) needed.push(field);
  }
  out.properties = props;
  out.required = needed;
  return out;
}

function projectList(schema: Node, reads: readonly Read[], where: string): Node {
  const { shapes, nullable } = alternatives(schema);
  const lists = shapes.map((s) => {
    if (!isNode(s.items)) throw new Error(`response schemas: ${where} is not a list`);
    return { ...s, items: project(s.items, reads, where) };
  });
  const alts = nullable ? [...lists, { type: 'null' }] : lists;
  return alts.length === 1 ? alts[0]! : { anyOf: alts };
}

/** One view's schema: its operation's success schema, projected onto what the view reads. */
export function viewSchema(view: AnswerView): Node {
  const response = schemasOf(view.op)?.response;
  if (!response) throw new Error(`response schemas: ${view.op} has no success schema`);
  const whole = mapNode(mapNode(inlined(publishedSchema(response, 'output')), tolerant), nullableAsType);
  return project(whole, view.reads.map(parseRead), view.op);
}

/** Every view's schema, keyed by its name (the validators' export names). */
export function responseSchemas(): Record<string, Node> {
  return Object.fromEntries(Object.entries(ANSWER_VIEWS).map(([name, view]) => [name, viewSchema(view)]));
}

const HEADER = `/* eslint-disable */
// Written by \`npm run gen\` (src/contract/response-schemas.ts): ajv's standalone validators of each answer
// view (src/contract/answer-views.ts): what a flow's step reads of a success answer, as the JSON Schemas
// the sandbox publishes say it. Do not edit. Loaded lazily by src/contract/response-check.ts.
`;

/** The source of ./generated/response-validators.js. */
export function responseValidatorsSource(): string {
  return standaloneSource(responseSchemas(), HEADER);
}
