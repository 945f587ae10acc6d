// adops api METHOD PATH: the raw escape hatch, with the same auth, retries,
// errors, exit codes and output as every other command.
import type { CommandContext } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import { prepareOutput, writeObject } from '../cli/output/writers.js';
import type { CommandInput } from '../cli/registry.js';
import { inputsOf } from './_shared/operation-data.js';
import { matchOperation } from '../contract/operations.js';
import { fieldsToBody, fieldsToQuery, readInput } from './_shared/fields.js';
import { warnUnknown } from './_shared/request-input.js';
import { streamList } from './_shared/list.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const FORBIDDEN_HEADERS = ['authorization', 'host', 'content-length', 'cookie'];

type ApiOptions = { field?: string[]; jsonField?: string[]; header?: string[]; input?: string; paginate?: boolean };

export async function run(ctx: CommandContext, input: CommandInput<ApiOptions, { method: string; path: string }>): Promise<number> {
  const method = input.args.method.toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${input.args.method}"`, `use one of ${METHODS.join(', ')}`);
  let path = input.args.path;
  const o = input.opts;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    // A full URL is accepted only on the configured origin: the key goes nowhere else.
    const url = new URL(path);
    const base = new URL(ctx.auth().baseUrl);
    if (url.origin !== base.origin) {
      throw new UsageError(
        `${url.origin} is not the configured base URL (${base.origin})`,
        'adops sends the API key only to the base URL; give a path like /observe/campaigns',
      );
    }
    path = url.pathname.slice(base.pathname.replace(/\/+$/, '').length) + url.search;
  }
  if (!path.startsWith('/')) path = '/' + path;
  if (path.startsWith('//')) throw new UsageError('the path must start with a single "/"');

  const headers: Record<string, string> = {};
  for (const h of o.header ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new UsageError(`header "${h}" is not name:value`);
    const name = h.slice(0, colon).trim().toLowerCase();
    if (FORBIDDEN_HEADERS.includes(name)) throw new UsageError(`header ${name} cannot be set with -H`);
    headers[name] = h.slice(colon + 1).trim();
  }

  const raw = o.field ?? [];
  const typed = o.jsonField ?? [];
  const bodyless = method === 'GET' || method === 'DELETE';
  let query: Record<string, string> | undefined;
  let json: unknown;
  if (bodyless) {
    if (o.input !== undefined) throw new UsageError(`--input is for a request body; ${method} has none`);
    if (typed.length) throw new UsageError(`-F sends a JSON body field; ${method} has no body: use -f for query parameters`);
    query = fieldsToQuery(raw);
  } else {
    const fromInput = o.input !== undefined ? await readInput(o.input, ctx.io.stdin) : undefined;
    const fields = fieldsToBody(typed, raw);
    if (Object.keys(fields).length) {
      if (fromInput !== undefined && (fromInput === null || typeof fromInput !== 'object' || Array.isArray(fromInput))) {
        throw new UsageError('--field needs --input to hold a JSON object');
      }
      json = { ...fromInput, ...fields };
    } else json = fromInput;
  }

  // Fields the matched operation's published schema does not list: sent, with a warning.
  const matched = matchOperation(method, path.split('?')[0]!);
  if (matched) {
    const io = inputsOf(matched.id);
    const inPath = [...new URLSearchParams(path.split('?')[1] ?? '').keys()];
    if (bodyless) warnUnknown(ctx, matched.id, 'query parameter', [...inPath, ...Object.keys(query ?? {})], io.query);
    else if (json && typeof json === 'object' && !Array.isArray(json)) warnUnknown(ctx, matched.id, 'body field', Object.keys(json), io.body?.fields ?? []);
  }

  // The raw hatch prints JSON unless an output format was asked for.
  const explicit = ctx.globals.output !== undefined || ctx.globals.json === true;
  const format = explicit ? ctx.output.format : 'json';
  const out = { ...(await prepareOutput(ctx, 'generic')), format };
  if (o.paginate === true) {
    if (method !== 'GET') throw new UsageError('--paginate works with GET only');
    return streamList(ctx, { method, path, ...(query ? { query } : {}), headers }, { all: true, resource: 'generic', output: out });
  }
  const client = await ctx.client();
  const res = await client.request({ method, path, ...(query ? { query } : {}), ...(json !== undefined ? { json } : {}), headers, signal: ctx.signal });
  await writeObject(res.body, out);
  return 0;
}
