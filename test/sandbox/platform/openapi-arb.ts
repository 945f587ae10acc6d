// fast-check arbitraries from the sandbox's own OpenAPI document: requests
// shaped like the schema says (mostly valid, sometimes off by one field), so
// fuzzing gets past validation into the handlers and models.
import fc from 'fast-check';

type Schema = Record<string, any>;
export type OpenApiDoc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };

/** Values that mean something in the fuzz world (ids, slugs, dates), tried as strings. */
export interface Vocabulary {
  strings: readonly string[];
}

function resolve(doc: OpenApiDoc, s: Schema): Schema {
  let cur = s;
  for (let i = 0; i < 10 && cur && typeof cur.$ref === 'string'; i++) {
    const name = cur.$ref.replace('#/components/schemas/', '');
    cur = doc.components?.schemas?.[name] ?? {};
  }
  return cur ?? {};
}

function stringArb(s: Schema, vocab: Vocabulary): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [fc.constantFrom(...vocab.strings)];
  if (typeof s.pattern === 'string') {
    try {
      options.push(fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length <= (s.maxLength ?? 500)));
    } catch {
      // a pattern fast-check cannot generate from: the vocabulary and free text remain
    }
  }
  if (s.format === 'date')
    options.push(fc.date({ min: new Date('2026-01-01'), max: new Date('2026-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  if (s.format === 'date-time') options.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  options.push(fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) }));
  return fc.oneof(...options);
}

export function schemaArb(doc: OpenApiDoc, input: Schema | undefined, vocab: Vocabulary, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, input ?? {});
  if (depth > 5) return fc.constant(null);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alts?.length) return fc.oneof(...alts.map((a) => schemaArb(doc, a, vocab, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length) return schemaArb(doc, s.allOf[0], vocab, depth + 1);
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => schemaArb(doc, { ...s, type: t }, vocab, depth + 1)));
  switch (type[0]) {
    case 'string':
      return stringArb(s, vocab);
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -5, -1e9), max: Math.min(s.maximum ?? 1e6, 1e12) });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaArb(doc, s.items, vocab, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = (s.required ?? []) as string[];
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaArb(doc, v, vocab, depth + 1)]));
      return fc.record(model, { requiredKeys: required.filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A query object from the operation's documented query parameters (required ones always present). */
export function queryArb(doc: OpenApiDoc, op: any, vocab: Vocabulary): fc.Arbitrary<Record<string, string>> {
  const params = ((op.parameters ?? []) as Schema[]).filter((p) => p.in === 'query');
  const model = Object.fromEntries(params.map((p) => [p.name as string, schemaArb(doc, p.schema, vocab).map((v) => String(v))]));
  return fc.record(model, { requiredKeys: params.filter((p) => p.required).map((p) => p.name as string) });
}

/** The operation's JSON body schema, or undefined when it takes none. */
export function bodySchema(op: any): Schema | undefined {
  return op.requestBody?.content?.['application/json']?.schema;
}

/** Turn a valid-looking value slightly invalid: drop, retype or add one field. */
export function perturb(value: unknown): fc.Arbitrary<unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fc.constant(value);
  const keys = Object.keys(value);
  return fc.oneof(
    fc.constant(value),
    fc.constant(value),
    keys.length ? fc.constantFrom(...keys).map((k) => ({ ...value, [k]: 12345.5 })) : fc.constant(value),
    keys.length ? fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(value).filter(([x]) => x !== k))) : fc.constant(value),
    fc.constant({ ...value, unexpectedField: 'x' }),
  );
}
