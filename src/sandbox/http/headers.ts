// A request header as `c.req.header(name)` answers it, read from the Node request
// when node-server serves the app (`c.env.incoming`, as http/json-body.ts reads its
// body): `c.req.header` would first build a fetch `Headers` of every header of the
// request (node-server makes it on first use), which was a measurable part of a
// stored read's cost (#16). Same answer: every value of the name, in order, trimmed
// of HTTP whitespace and joined with ", " (the fetch standard's "get"), or undefined.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';

/** HTTP whitespace (fetch standard): tab, LF, CR, space. */
const isHttpWhitespace = (code: number) => code === 0x09 || code === 0x0a || code === 0x0d || code === 0x20;

function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  while (end > start && isHttpWhitespace(value.charCodeAt(start))) start++;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** `name` in lower case. */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  return headerOf(c.req.raw, c.env?.incoming, name);
}

/** requestHeader before Hono has a context: the fetch request and, under node-server, the Node one. */
export function headerOf(request: Request, incoming: IncomingMessage | undefined, name: string): string | undefined {
  if (!incoming) return request.headers.get(name) ?? undefined;
  const raw = incoming.rawHeaders;
  let found: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const value = trimHttpWhitespace(raw[i + 1]!);
    found = found === undefined ? value : `${found}, ${value}`;
  }
  return found;
}

/**
 * Under node-server, make this request's `c.req.header(name)` answer as requestHeader does, from
 * the Node request's raw headers. The framework asks for a header on every request with a body
 * (@hono/zod-openapi's media-type gate, Hono's json validator: `Content-Type`), and its answer
 * came from a fetch `Headers` of every header, built for that question alone: ~6 µs of each
 * write (#27). The same answer (`name` is matched case-insensitively, as `Headers.get` does).
 * `c.req.header()` with no name (every header, for a header validator) is left as it was.
 */
export function answerHeadersFromNode<P extends string, I extends object>(c: Context<AppEnv, P, I>): void {
  const incoming = c.env?.incoming;
  if (!incoming) return;
  const req = c.req;
  const every = req.header.bind(req);
  function header(name: string): string | undefined;
  function header(): Record<string, string>;
  function header(name?: string): string | undefined | Record<string, string> {
    return name ? headerOf(req.raw, incoming, name.toLowerCase()) : every();
  }
  Object.assign(req, { header });
}
