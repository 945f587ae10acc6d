// The `--fields` paths of each noun, derived from the response schemas of the
// operations that answer its rows (./resources.ts `rows`): a page's `data[]`
// element, or the object itself. Run at `npm run gen` into
// ./generated/resource-fields.json, which the CLI reads (so no command loads zod
// for it); a test fails when that file is stale.
import type { z } from 'zod';
import { schemasOf } from './operation-schemas.js';
import { resourceEntries, rowOperations } from './resources.js';

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
}

// zod 4 keeps a schema's definition on `_zod.def`; its public types do not name every kind's fields.
const defOf = (s: z.ZodType): Def => s._zod.def;

/** The definition under the wrappers that do not change a value's shape. */
function unwrap(schema: z.ZodType): Def {
  let def = defOf(schema);
  while (['optional', 'nullable', 'default', 'readonly'].includes(def.type)) def = defOf(def.innerType!);
  return def.type === 'pipe' ? unwrap(def.in!) : def;
}

/** Field paths of a zod schema: objects nest as dotted paths, records and loose objects are open (`x.*`). */
export function schemaPaths(schema: z.ZodType, prefix = ''): string[] {
  const def = unwrap(schema);
  // A union (a failure's body, one shape per code): the paths of any of its shapes.
  if (def.type === 'union') return [...new Set(def.options!.flatMap((o) => schemaPaths(o, prefix)))];
  const open = def.type === 'record' || def.type === 'unknown' || (def.type === 'object' && def.catchall && defOf(def.catchall).type !== 'never');
  if (open) return prefix ? [`${prefix}.*`] : [];
  if (def.type !== 'object') return [];
  return Object.entries(def.shape!).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [path, ...schemaPaths(v, path)];
  });
}

/** A page (`{ data: [row], nextCursor? }`) answers its rows; anything else is the row. */
function rowSchema(response: z.ZodType): z.ZodType {
  const def = unwrap(response);
  const data = def.type === 'object' ? def.shape?.data : undefined;
  if (!data || Object.keys(def.shape!).some((k) => k !== 'data' && k !== 'nextCursor')) return response;
  const list = unwrap(data);
  return list.type === 'array' ? list.element! : response;
}

/** Each noun's field paths, in schema order, from the operations that answer its rows; nouns without such operations are left out. */
export function resourceFields(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, r] of resourceEntries()) {
    const rows = rowOperations(r);
    if (rows.length === 0) continue;
    const paths = rows.flatMap((id) => {
      const response = schemasOf(id)?.response;
      if (!response) throw new Error(`${name}: ${id} has no response schema`);
      return schemaPaths(rowSchema(response));
    });
    out[name] = [...new Set(paths)];
  }
  return out;
}
