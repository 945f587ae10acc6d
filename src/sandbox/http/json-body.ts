// The one exception to the order of checks: "a body that is not valid JSON
// gives 400 before the key is checked". So this middleware runs before
// authorize() on every operation that takes a body. It reads the text once;
// Hono caches it, so the validators parse the same bytes later.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { invalidRequest } from './errors.js';

/** application/json, or any application/…+json, with or without parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return /^application\/([a-z0-9.+-]+\+)?json$/.test(essence);
}

export const notJsonIssue = { in: 'body' as const, path: '', message: 'is not valid JSON' };

export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isJsonMediaType(c.req.header('content-type'))) {
    const text = await c.req.text();
    if (text.trim().length > 0) {
      try {
        JSON.parse(text);
      } catch {
        throw invalidRequest([notJsonIssue], 'The body is not valid JSON.');
      }
    }
  }
  await next();
};
