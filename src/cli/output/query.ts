// `--query <jmespath>`, as the AWS CLI's: JMESPath (community edition) over
// the result. A list is queried as the array of its rows (all pages of --all,
// so --query buffers the list); a single result as the object itself. The AWS
// CLI queries the whole response; here the envelope ({data, nextCursor}) is
// paging detail the CLI already follows, so `[?status=='ACTIVE'].name` reads
// the same for one page or --all. With --fields, rows are narrowed first.
// The library is imported on first use, keeping it off the start-up path.
import { UsageError } from '../errors.js';

type Jmespath = typeof import('@jmespath-community/jmespath');
let lib: Promise<Jmespath> | undefined;
const load = () => (lib ??= import('@jmespath-community/jmespath'));

function usage(expr: string, err: unknown): UsageError {
  const why = err instanceof Error ? err.message : String(err);
  return new UsageError(
    `--query ${JSON.stringify(expr)}: ${why}`,
    'see https://jmespath.site for the expression language, e.g. --query "[?status==\'ACTIVE\'].name"',
  );
}

/** Parse only: a bad expression is refused before anything is sent. */
export async function checkQuery(expr: string): Promise<void> {
  const { compile } = await load();
  try {
    compile(expr);
  } catch (err) {
    throw usage(expr, err);
  }
}

/** The query's result; a syntax error or a runtime one (unknown function, wrong type) is a usage error. */
export async function applyQuery(value: unknown, expr: string): Promise<unknown> {
  const { search } = await load();
  try {
    return search(value as Parameters<Jmespath['search']>[0], expr);
  } catch (err) {
    throw usage(expr, err);
  }
}

/** A node of the compiled query, read field by field: the library's AST type is not part of its API. */
type Node = { type: string; right?: unknown; children?: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

/**
 * The keys each row of the query's list will have, when the query ends in a
 * projection onto a hash (`[?…].{id: id, name: name}`): so an empty result
 * still gets its CSV header. Undefined when the shape is not known in advance.
 */
export async function queryColumns(expr: string): Promise<string[] | undefined> {
  const { compile } = await load();
  const ast: unknown = compile(expr);
  const projected = isNode(ast) && /Projection$/.test(ast.type) ? ast.right : undefined;
  if (!isNode(projected) || projected.type !== 'MultiSelectHash' || !Array.isArray(projected.children)) return undefined;
  const names = projected.children.map((c: unknown) => (isNode(c) && 'name' in c ? c.name : undefined));
  return names.every((n): n is string => typeof n === 'string') ? names : undefined;
}
