// The one validator engine, read side: ajv's verdicts (its error objects, from
// the standalone code ./validator-build.ts writes) in a person's words, one
// issue per field: a JSON Pointer and words that follow the field's name
// ("must be one of daily, lifetime"). Shared by the request checks
// (./request-check.ts: what the CLI is about to send) and the answer checks
// (./response-check.ts: what a flow is about to act on). Never repeats a value
// it was given: words come from the schema (its bounds, its choices).

export interface ValidationIssue {
  /** JSON Pointer of the field in the checked value ('' is the whole value). */
  pointer: string;
  /** What is wrong, in words that follow the field's name: "must be at most 200 characters". */
  text: string;
  /** The shape of a tagged union the problem is about (a mutation's action), when the field sits in one. */
  shape?: string;
  /** Set when the field is one the schema does not list there: the names it does list. */
  unknown?: { known: string[] };
}

export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
export type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
export interface ShapeFacts {
  names: Record<string, string[]>;
  tags: Record<string, { by: string; shapes: Record<string, string[]> }>;
}
const NO_FACTS: ShapeFacts = { names: {}, tags: {} };

export interface Validators {
  SHAPES?: Record<string, ShapeFacts>;
  [key: string]: Validate | Record<string, ShapeFacts> | undefined;
}

/** A generated validators module (`import('./generated/…-validators.js')`), imported once, on first use. */
export function validatorsLoader(importer: () => Promise<unknown>): () => Promise<Validators> {
  let loaded: Promise<Validators> | undefined;
  // Its exports are the standalone validators by name (validator-build.ts writes them so).
  return () => (loaded ??= importer() as Promise<Validators>);
}

export const unescape = (seg: string) => seg.replace(/~1/g, '/').replace(/~0/g, '~');
export const escape = (seg: string) => seg.replace(/~/g, '~0').replace(/\//g, '~1');
/** `/lineItems/3/name` → `/lineItems/*\/name`: where the facts about a place are kept. */
const place = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

/** The value a JSON Pointer names in `value` (undefined when there is none). */
export function valueAt(value: unknown, pointer: string): unknown {
  let node: unknown = value;
  for (const seg of pointer.split('/').slice(1).map(unescape)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Reflect.get(node, seg);
  }
  return node;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};
const typeWords = (t: unknown) => (Array.isArray(t) ? t : [t]).map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(' or ');
const list = (v: unknown) => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : String(v));

/** A pattern's words: `^acc_` is "must start with acc_". */
function patternText(pattern: string): string {
  const prefix = /^\^([A-Za-z0-9_-]+)(?:\.\*)?$/.exec(pattern)?.[1];
  return prefix ? `must start with ${prefix}` : `must match ${pattern}`;
}

const FORMAT_WORDS: Readonly<Record<string, string>> = { date: 'must be a real calendar date YYYY-MM-DD', uri: 'must be a URL' };

function keywordText(e: AjvError): string {
  const p = e.params;
  switch (e.keyword) {
    case 'type':
      return `must be ${typeWords(p.type)}`;
    case 'enum':
      return `must be one of ${list(p.allowedValues)}`;
    case 'const':
      return `must be ${list([p.allowedValue])}`;
    case 'minLength':
      return p.limit === 1 ? 'cannot be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'pattern':
      return patternText(String(p.pattern));
    case 'format':
      return FORMAT_WORDS[String(p.format)] ?? `must be a ${String(p.format)}`;
    case 'minItems':
      return p.limit === 1 ? 'cannot be an empty list' : `must hold at least ${String(p.limit)} items`;
    case 'maxItems':
      return `must hold at most ${String(p.limit)} items`;
    case 'uniqueItems':
      return `must not repeat an item (items ${String(p.j)} and ${String(p.i)} are the same)`;
    case 'minProperties':
      return `must name at least ${String(p.limit)} field(s)`;
    case 'maxProperties':
      return `must name at most ${String(p.limit)} field(s)`;
    default:
      return e.message ?? `fails the ${e.keyword} rule`;
  }
}

/**
 * Failed unions (anyOf / oneOf without a tag) in a person's words: "needs bidStrategy or
 * bidAmount" when each alternative only asks for a field; otherwise the alternatives the value is
 * not even the type of are dropped, and when one is left its own problems are the ones shown.
 */
function untangleUnions(errors: AjvError[]): { kept: AjvError[]; needs: Map<AjvError, string[]> } {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const dropped = new Set<AjvError>();
  const needs = new Map<AjvError, string[]>();
  for (const u of unions) {
    const inside = errors.filter((e) => e !== u && e.schemaPath.startsWith(`${u.schemaPath}/`));
    inside.forEach((e) => dropped.add(e));
    if (inside.length && inside.every((e) => e.keyword === 'required' && e.instancePath === u.instancePath)) {
      needs.set(
        u,
        inside.map((e) => String(e.params.missingProperty)),
      );
      continue;
    }
    const branch = (e: AjvError) => e.schemaPath.slice(u.schemaPath.length + 1).split('/')[0]!;
    const branches = [...new Set(inside.map(branch))];
    const fitting = branches.filter((b) => !inside.some((e) => branch(e) === b && e.keyword === 'type' && e.instancePath === u.instancePath));
    if (fitting.length === 1) {
      inside.filter((e) => branch(e) === fitting[0]).forEach((e) => dropped.delete(e));
      dropped.add(u);
    } else if (fitting.length === 0 && inside.length) {
      const types: unknown[] = inside
        .filter((e) => e.keyword === 'type')
        .flatMap((e): unknown[] => (Array.isArray(e.params.type) ? e.params.type : [e.params.type]));
      needs.set(u, []);
      u.params = { ...u.params, types };
    }
  }
  return { kept: errors.filter((e) => !dropped.has(e)), needs };
}

/** A pattern that fails beside a format at the same place (a date's `^\\d{4}-\\d{2}-\\d{2}$`): the format's words say it. */
const saidByFormat = (errors: AjvError[]) =>
  errors.filter((e) => !(e.keyword === 'pattern' && errors.some((f) => f.keyword === 'format' && f.instancePath === e.instancePath)));

export function issuesOf(errors: AjvError[], value: unknown, facts: ShapeFacts = NO_FACTS): ValidationIssue[] {
  const { kept, needs } = untangleUnions(saidByFormat(errors));
  const out: ValidationIssue[] = [];
  const tagAt = (pointer: string) => {
    const tag = facts.tags[place(pointer)];
    const v = tag ? valueAt(value, `${pointer}/${escape(tag.by)}`) : undefined;
    return tag && typeof v === 'string' && tag.shapes[v] ? { ...tag, value: v, names: tag.shapes[v] } : undefined;
  };
  const add = (issue: ValidationIssue) => {
    if (!out.some((o) => o.pointer === issue.pointer && o.text === issue.text)) out.push(issue);
  };
  for (const e of kept) {
    const here = e.instancePath;
    const tag = tagAt(here);
    const shape = tag ? { shape: tag.value } : {};
    switch (e.keyword) {
      case 'required': {
        const name = String(e.params.missingProperty);
        add({ pointer: `${here}/${escape(name)}`, text: tag ? `is required for ${tag.value}` : 'is required', ...shape });
        break;
      }
      case 'additionalProperties': {
        const name = String(e.params.additionalProperty);
        const everywhere = facts.names[place(here)] ?? [];
        if (tag && everywhere.includes(name)) {
          add({ pointer: `${here}/${escape(name)}`, text: `is not a field of ${tag.by} ${tag.value} (it takes ${tag.names.join(', ')})`, ...shape });
        } else {
          add({ pointer: `${here}/${escape(name)}`, text: 'is not a field the service lists here', unknown: { known: tag?.names ?? everywhere }, ...shape });
        }
        break;
      }
      case 'discriminator': {
        const by = String(e.params.tag);
        const values = Object.keys(facts.tags[place(here)]?.shapes ?? {});
        add({ pointer: `${here}/${escape(by)}`, text: `must be one of ${values.join(', ')}` });
        break;
      }
      case 'anyOf':
      case 'oneOf': {
        const needed = needs.get(e);
        const types = e.params.types;
        if (needed?.length) add({ pointer: here, text: `needs ${needed.join(' or ')}`, ...shape });
        else if (Array.isArray(types) && types.length) add({ pointer: here, text: `must be ${typeWords([...new Set(types)])}` });
        else add({ pointer: here, text: 'matches none of the shapes it may take', ...shape });
        break;
      }
      default:
        add({ pointer: here, text: keywordText(e) });
    }
  }
  return out;
}

/** `/data/3/status` → `data[3].status`; the whole value is `the answer`. For a person, never a value. */
export function pointerWords(pointer: string, whole = 'the whole value'): string {
  if (pointer === '') return whole;
  return pointer
    .split('/')
    .slice(1)
    .map(unescape)
    .reduce((out, seg) => (/^\d+$/.test(seg) ? `${out}[${seg}]` : out ? `${out}.${seg}` : seg), '');
}
