// An operation's arguments as an MCP tool takes them, and back to the argv of its
// adops command. The schema is the generated JSON of what the operation accepts
// (src/contract/generated/operation-inputs.json, the one the CLI's flags come
// from): path parameters and query fields at the top level, the request body as
// one `body` object (a body field may share a path parameter's name). The argv
// is what a person would type: path parameters as positionals (after `--`, so a
// value starting with a dash is never an option), query fields as the command's
// own flags (`--flag=value`, same reason), -f for a field without a flag, and the
// body as JSON on stdin through `--input -`.
import type { FieldInput, OperationInputs } from '../contract/operation-inputs.js';
import type { OperationCommandData } from '../commands/_shared/operation-data.js';
import type { ToolInputSchema } from './tool-def.js';

type Obj = Record<string, unknown>;

/** One field's JSON Schema, its rules word for word. */
export function fieldSchema(f: FieldInput): Obj {
  const type = f.type === 'any' ? undefined : f.type;
  const facets: Obj = {};
  for (const k of ['description', 'pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum'] as const) {
    if (f[k] !== undefined && !(k === 'pattern' && type !== 'string')) facets[k] = f[k];
  }
  return {
    ...(type ? { type: f.nullable ? [type, 'null'] : type } : {}),
    ...facets,
    ...(f.enum ? { enum: f.nullable ? [...f.enum, null] : f.enum } : {}),
    ...(f.type === 'array' ? { items: f.items && f.items !== 'any' ? { type: f.items } : {} } : {}),
  };
}

function objectOf(fields: readonly FieldInput[], closed: boolean): ToolInputSchema {
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])),
    ...(required.length ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/** A body of several shapes (a mutation's `action`): each shape's fields, so an agent sees what each value takes. */
function variantsText(io: OperationInputs): string {
  const v = io.body?.variants;
  if (!v) return '';
  return ` One of several shapes by "${v.by}": ${v.shapes.map((s) => `${String(s.value)} (${s.required.join(', ')}${s.description ? `: ${s.description.replace(/\.$/, '')}` : ''})`).join('; ')}.`;
}

/** The tool's input schema: path parameters and query fields, and the body as `body`. */
export function inputSchemaOf(io: OperationInputs): ToolInputSchema {
  const top = objectOf([...io.params, ...io.query], true);
  if (!io.body) return top;
  const body = { ...objectOf(io.body.fields, io.body.closed), description: `The request body (JSON).${variantsText(io)}` };
  return {
    ...top,
    properties: { ...top.properties, body },
    ...(io.body.required ? { required: [...(top.required ?? []), 'body'] } : {}),
  };
}

const text = (v: unknown): string => (Array.isArray(v) ? v.map((x) => String(x)).join(',') : typeof v === 'string' ? v : JSON.stringify(v));

/** How a tool's arguments become an adops command line. */
export interface ArgvPlan {
  /** The command's words (`observe`, `campaigns`, `list`). */
  path: readonly string[];
  data: OperationCommandData;
  /** The operation performed (the command's own, or its alternate's). */
  io: OperationInputs;
  /** The alternate flag (`--live`) and the path parameter it carries, when the operation is the command's alternate. */
  alternate?: { flag: string; param: string };
  /** Whether the command takes a body (then -f sets body fields, so a query field without a flag cannot be sent). */
  hasBody: boolean;
}

/** argv and stdin for one call; `extra` flags go before the positionals. */
export function argvOf(plan: ArgvPlan, args: Obj, extra: readonly string[] = []): { argv: string[]; stdin?: string } {
  const flags: string[] = [];
  if (plan.alternate) flags.push(`--${plan.alternate.flag}=${text(args[plan.alternate.param])}`);
  for (const f of plan.io.query) {
    const v = args[f.name];
    if (v === undefined || v === null) continue;
    if (f.name === 'cursor' || f.name === 'limit') {
      flags.push(`--${f.name}=${text(v)}`);
      continue;
    }
    const flag = plan.data.flags.find((ff) => ff.in === 'query' && ff.field === f.name);
    if (flag && f.type === 'boolean') {
      if (v === true) flags.push(`--${flag.flag}`);
      else if (!plan.hasBody) flags.push('-f', `${f.name}=${text(v)}`);
    } else if (flag) flags.push(`--${flag.flag}=${text(v)}`);
    else if (!plan.hasBody) flags.push('-f', `${f.name}=${text(v)}`);
  }
  const body = args.body;
  if (body !== undefined) flags.push('--input', '-');
  const positionals = plan.data.args.map((a) => text(args[a.param] ?? ''));
  return {
    argv: [...plan.path, ...flags, ...extra, ...(positionals.length ? ['--', ...positionals] : [])],
    ...(body !== undefined ? { stdin: JSON.stringify(body) } : {}),
  };
}

/** Required top-level arguments an agent left out (the command would read them as empty or take another path). */
export function missingArgs(schema: ToolInputSchema, args: Obj): string[] {
  return (schema.required ?? []).filter((k) => args[k] === undefined || args[k] === null || args[k] === '');
}
