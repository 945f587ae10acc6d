// What each operation accepts, as plain JSON: the top-level fields of its path
// params, query and body, each with its type and rules, read off the zod
// schemas in ./operation-schemas.ts. `npm run gen` writes the result to
// ./generated/operation-inputs.json, which the CLI reads (flags, path and
// query checks, help, completions) without loading zod; a test fails when the
// committed file is stale. Whole bodies are checked by the compiled
// validators of ./request-schemas.ts instead (nested fields, unions, items).
import { z } from 'zod';
import { OPERATIONS } from './operations.js';
import { schemasOf } from './operation-schemas.js';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';

/** The rules a field keeps as its JSON Schema says them, word for word. */
interface Facets {
  description?: string;
  pattern?: string;
  /** 'date' for YYYY-MM-DD (a real calendar day), 'uri' for a URL. */
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

export interface FieldInput extends Facets {
  name: string;
  type: FieldType;
  required: boolean;
  /** Accepts null besides its type. */
  nullable?: boolean;
  enum?: Array<string | number | boolean>;
  /** Item type of an array field. */
  items?: FieldType;
}

export interface PartInputs {
  fields: FieldInput[];
  /** Fields it does not list are refused (a strict object). */
  closed: boolean;
  /**
   * A body that is one of several shapes told apart by one field (a
   * discriminated union, e.g. a mutation's `action`): per value, the fields
   * that shape takes and those it requires. `fields` is then their union,
   * required where every shape requires it.
   */
  variants?: { by: string; shapes: Array<{ value: string | number | boolean; description?: string; fields: string[]; required: string[] }> };
}

export interface OperationInputs {
  params: FieldInput[];
  query: FieldInput[];
  body?: PartInputs & { required: boolean };
}

type JsonSchema = Facets & {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const KNOWN_FORMATS = new Set(['uri', 'email', 'uuid', 'date-time']);
const TYPES: readonly FieldType[] = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

function field(name: string, schema: JsonSchema, required: boolean): FieldInput {
  let s = schema;
  let nullable = false;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const rest = alternatives.filter((a) => a.type !== 'null');
    nullable = rest.length < alternatives.length;
    if (rest.length === 1) s = withDescription(rest[0]!, s.description);
  }
  if (s.allOf?.length === 1) s = withDescription(s.allOf[0]!, s.description);
  let type: FieldType = 'any';
  const types = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null') : s.type ? [s.type] : [];
  if (Array.isArray(s.type) && s.type.includes('null')) nullable = true;
  if (types.length === 1 && TYPES.includes(types[0] as FieldType)) type = types[0] as FieldType;
  const values = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
  if (type === 'any' && values?.every((v) => typeof v === 'string')) type = 'string';
  const out: FieldInput = { name, type, required };
  if (s.description) out.description = s.description;
  if (nullable) out.nullable = true;
  if (values) out.enum = values.filter((v): v is string | number | boolean => v !== null);
  if (s.pattern === DATE_PATTERN || s.format === 'date') out.format = 'date';
  else {
    if (s.format && KNOWN_FORMATS.has(s.format)) out.format = s.format;
    if (s.pattern) out.pattern = s.pattern;
  }
  if (s.minLength !== undefined) out.minLength = s.minLength;
  if (s.maxLength !== undefined) out.maxLength = s.maxLength;
  if (s.minimum !== undefined) out.minimum = s.minimum;
  if (s.exclusiveMinimum !== undefined) out.minimum = s.exclusiveMinimum;
  if (s.maximum !== undefined) out.maximum = s.maximum;
  if (s.exclusiveMaximum !== undefined) out.maximum = s.exclusiveMaximum;
  if (type === 'array' && s.items) out.items = field('', s.items, false).type;
  return out;
}

/** Replace every local `$ref` with what it names (our schemas have no cycles). */
function inline(node: unknown, defs: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 32 || node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => inline(n, defs, depth + 1));
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    const { $ref, ...rest } = obj;
    const target = defs[$ref.replace('#/$defs/', '')];
    return { ...(inline(target, defs, depth + 1) as object), ...(inline(rest, defs, depth + 1) as object) };
  }
  return Object.fromEntries(
    Object.entries(obj)
      .filter(([k]) => k !== '$defs' && k !== '$schema')
      .map(([k, v]) => [k, inline(v, defs, depth + 1)]),
  );
}

function part(schema: z.ZodType | undefined): PartInputs {
  if (!schema) return { fields: [], closed: false };
  const raw = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const json = inline(raw, raw.$defs ?? {}) as JsonSchema;
  const shapes = json.oneOf ?? json.anyOf;
  if (!shapes || json.properties) {
    const required = new Set(json.required ?? []);
    return {
      fields: Object.entries(json.properties ?? {}).map(([name, s]) => field(name, s, required.has(name))),
      closed: json.additionalProperties === false,
    };
  }
  // A union of objects: find the field whose constant tells the shapes apart.
  const by = Object.keys(shapes[0]?.properties ?? {}).find((k) => shapes.every((sh) => sh.properties?.[k]?.const !== undefined));
  const merged = new Map<string, FieldInput>();
  for (const sh of shapes) {
    for (const [name, s] of Object.entries(sh.properties ?? {})) {
      const f = field(
        name,
        s,
        shapes.every((o) => o.required?.includes(name)),
      );
      const seen = merged.get(name);
      if (seen?.enum && f.enum) seen.enum = [...new Set([...seen.enum, ...f.enum])];
      else if (!seen) merged.set(name, f);
    }
  }
  const out: PartInputs = { fields: [...merged.values()], closed: shapes.every((sh) => sh.additionalProperties === false) };
  if (by) {
    out.variants = {
      by,
      shapes: shapes.map((sh) => ({
        value: sh.properties![by]!.const as string,
        ...(sh.description ? { description: sh.description } : {}),
        fields: Object.keys(sh.properties ?? {}),
        required: sh.required ?? [],
      })),
    };
  }
  return out;
}

/** Every operation's inputs, keyed by operationId, in the operation table's order. */
export function operationInputs(): Record<string, OperationInputs> {
  const out: Record<string, OperationInputs> = {};
  for (const op of OPERATIONS) {
    const s = schemasOf(op.id);
    if (!s) throw new Error(`no schemas for operation ${op.id}`);
    const entry: OperationInputs = { params: part(s.params).fields, query: part(s.query).fields };
    if (s.body) entry.body = { ...part(s.body), required: s.bodyOptional !== true };
    out[op.id] = entry;
  }
  return out;
}

/** The one alternative left, keeping the outer description when it has one. */
function withDescription(inner: JsonSchema, outer: string | undefined): JsonSchema {
  const description = outer ?? inner.description;
  return description === undefined ? { ...inner } : { ...inner, description };
}
