// What each operation's request must be, as the JSON Schema the sandbox
// publishes for it, compiled by the one validator engine (./validator-build.ts)
// into standalone validators that the CLI loads lazily (./request-check.ts) to
// check a request before sending it. `npm run gen` writes two files:
// ./generated/request-validators.js, the bodies and headers (nested fields,
// unions and bounds included; loaded only when a command sends one), and
// ./generated/parameter-validators.js, the path and query parameters (text on
// the wire, each parameter's schema compiled once; small enough for the stored
// reads' own bundle, which checks its query too). Dev-time only (zod, ajv):
// nothing at run time imports this file, only the code it writes.
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

/** The source of ./generated/request-validators.js. */
export function requestValidatorsSource(): string {
  const schemas = requestSchemas();
  const shapeFacts = Object.fromEntries(Object.entries(schemas).map(([k, s]) => [k, facts(s)]));
  return standaloneSource(schemas, HEADER, `export const SHAPES = ${JSON.stringify(shapeFacts)};\n`);
}

/**
 * A path or query parameter travels as text. Where the contract reads a number (or a boolean) out of that
 * text, its published schema says both: the value's type and bounds (`limit`: an integer from 1 to 500) and
 * the pattern the text must match (`^[0-9]{1,4}$`, so `1e2` or ` 5` is refused). ajv's coerceTypes converts
 * the text before the type check, and a pattern applies to strings only, so the text's pattern is checked
 * first, on its own, then the converted value: both, as the sandbox's zod schema checks them.
 */
export function wireForm(node: Node): Node {
  if (typeof node.pattern !== 'string' || !['integer', 'number', 'boolean'].includes(String(node.type))) return node;
  const { pattern, ...value } = node;
  return { allOf: [{ type: 'string', pattern }, value] };
}

/** One operation's path or query parameters: the names it requires, and each name's validator (its export name). */
export interface ParameterPart {
  required: string[];
  fields: Record<string, string>;
}

/**
 * Every operation's path and query parameters, keyed `<operationId>_params` and `<operationId>_query`, and the
 * schema of each parameter in its wire form, compiled once however many operations take it (`p0`, `p1`, …).
 */
export function parameterSchemas(): { parts: Record<string, ParameterPart>; schemas: Record<string, Node> } {
  const parts: Record<string, ParameterPart> = {};
  const schemas: Record<string, Node> = {};
  const named = new Map<string, string>();
  for (const op of OPERATIONS) {
    for (const part of ['params', 'query'] as const) {
      const zodSchema = schemasOf(op.id)?.[part];
      if (!zodSchema) continue;
      const json = publishedSchema(zodSchema, 'input');
      const fields: Record<string, string> = {};
      for (const [name, schema] of Object.entries(isNode(json.properties) ? json.properties : {})) {
        // A parameter is a flat value with its whole schema in place: a shared definition would lose its $defs here.
        if (!isNode(schema) || JSON.stringify(schema).includes('"$ref"')) throw new Error(`${op.id} ${part} ${name}: not a self-contained parameter schema`);
        const wire = wireForm(schema);
        const text = JSON.stringify(wire);
        const id = named.get(text) ?? `p${named.size}`;
        if (!named.has(text)) {
          named.set(text, id);
          schemas[id] = wire;
        }
        fields[name] = id;
      }
      parts[`${op.id}_${part}`] = { required: Array.isArray(json.required) ? json.required.map(String) : [], fields };
    }
  }
  return { parts, schemas };
}

const PARAMETER_HEADER = `/* eslint-disable */
// Written by \`npm run gen\` (src/contract/request-schemas.ts): ajv's standalone validators of each path and
// query parameter (text, converted where the contract reads a number), from the JSON Schemas the sandbox
// publishes, and PARAMETERS: per operation, the names it requires and each name's validator. Do not edit.
// Loaded lazily by src/contract/request-check.ts when a command checks a path or query.
`;

/** The source of ./generated/parameter-validators.js. */
export function parameterValidatorsSource(): string {
  const { parts, schemas } = parameterSchemas();
  const entry = (p: ParameterPart) =>
    `{required:${JSON.stringify(p.required)},fields:{${Object.entries(p.fields)
      .map(([name, id]) => `${JSON.stringify(name)}:${id}`)
      .join(',')}}}`;
  const table = Object.entries(parts)
    .map(([key, p]) => `${JSON.stringify(key)}:${entry(p)}`)
    .join(',');
  return standaloneSource(schemas, PARAMETER_HEADER, '', { coerceTypes: true, messages: false, epilogue: `\nexport const PARAMETERS = {${table}};\n` });
}

/** The .d.ts beside ./generated/parameter-validators.js. */
export function parameterValidatorsDeclaration(): string {
  return `// Written by \`npm run gen\` beside parameter-validators.js (src/contract/request-schemas.ts). Do not edit.
import type { Validate } from '../validation-words.js';

/** Per operation (\`<id>_params\`, \`<id>_query\`): the parameters it requires, and each parameter's validator. */
export declare const PARAMETERS: Record<string, { required: string[]; fields: Record<string, Validate> }>;
`;
}
