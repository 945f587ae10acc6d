// The one exception to the order of checks: "a body that is not valid JSON
// gives 400 before the key is checked". So this middleware runs before
// authorize() on every operation that takes a body. It reads the body as a
// stream with a byte cap and a deadline (http/limits.ts), so no request makes
// the sandbox buffer more than the cap or wait on a stalled sender, then hands
// the text to Hono's cache so the validators parse the same bytes later.
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { invalidRequest } from '../models/errors.js';
import { fail } from './errors.js';
import { requestHeader } from './headers.js';
import type { ServiceError } from '../models/errors.js';
import { DEFAULT_HTTP_LIMITS } from './limits.js';
import type { HttpLimits } from './limits.js';

/** application/json, or any application/…+json, with or without parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  // What nearly every client sends, answered without a split, a lower-casing and a regular expression (#37).
  if (contentType === 'application/json') return true;
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return /^application\/([a-z0-9.+-]+\+)?json$/.test(essence);
}

export const notJsonIssue = { in: 'body' as const, path: '', message: 'is not valid JSON' };

const notJson = () => invalidRequest([notJsonIssue], 'The body is not valid JSON.');

/**
 * 413 at once. The rest is never read into memory: the connection stays open while Node reads
 * and discards what still comes, for a bounded time (server.ts, lingerClose). A `Connection:
 * close` here would make Node close at once, with the client's bytes unread: a reset that loses
 * the 413 before the client reads it.
 */
function tooLarge(c: Context<AppEnv>, limit: number) {
  return fail('body_too_large', `The request body passed the ${limit}-byte limit of a JSON body.`, { limitBytes: limit });
}

function timedOut(c: Context<AppEnv>, ms: number) {
  c.header('connection', 'close');
  return fail('request_timeout', `The request body did not arrive within ${ms} ms.`);
}

/** The web stream's bytes (app.request(), no Node request): an async iterator, or null without a body. */
function webBodyBytes(c: Context<AppEnv>): AsyncIterator<Uint8Array> | null {
  const body: AsyncIterable<Uint8Array> | null = c.req.raw.body;
  return body ? body[Symbol.asyncIterator]() : null;
}

const cutOff = () => invalidRequest([{ in: 'body', path: '', message: 'ended before it was complete' }], 'The body was cut off.');

/** Read at most `limits.jsonBodyBytes` within `limits.jsonBodyMs`; throws 413 / 408 past them. */
async function readCapped(c: Context<AppEnv>, limits: HttpLimits): Promise<Buffer> {
  const declared = Number(requestHeader(c, 'content-length'));
  if (Number.isFinite(declared) && declared > limits.jsonBodyBytes) throw tooLarge(c, limits.jsonBodyBytes);
  const incoming = c.env?.incoming;
  return incoming ? readIncoming(c, incoming, limits) : readWebBody(c, limits);
}

/**
 * The Node request's body (served by node-server), read with its own events: one listener set
 * and one timer per body, where an async iterator raced against a deadline cost a promise or
 * two per chunk (#27: a few microseconds of every write). Stopping early (413, 408, a request
 * that broke off) removes the listeners and pauses the request, never destroys it, so the answer
 * still goes out (server.ts then discards the rest, for a bounded time).
 */
function readIncoming(c: Context<AppEnv>, incoming: IncomingMessage, limits: HttpLimits): Promise<Buffer> {
  if (incoming.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // A read that fails means the request broke off (client gone, bad framing answered by the
  // server's clientError): an answer nobody may read, but not a sandbox failure.
  if (incoming.destroyed) return Promise.reject(cutOff());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (failure?: ServiceError) => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onBroken);
      incoming.off('close', onBroken);
      if (failure) {
        incoming.pause();
        reject(failure);
      } else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limits.jsonBodyBytes) finish(tooLarge(c, limits.jsonBodyBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onBroken = () => finish(cutOff());
    const timer = setTimeout(() => finish(timedOut(c, limits.jsonBodyMs)), limits.jsonBodyMs);
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onBroken);
    incoming.on('close', onBroken);
  });
}

/** The same limits over the web stream (app.request(): tests and in-process callers). */
async function readWebBody(c: Context<AppEnv>, limits: HttpLimits): Promise<Buffer> {
  const source = webBodyBytes(c);
  if (!source) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limits.jsonBodyMs);
  });
  let done = false;
  try {
    for (;;) {
      const next = source.next();
      // A read left pending by the deadline rejects when the stream closes: nobody awaits it.
      next.catch(() => {});
      const step = await Promise.race([next, deadline]).catch(() => {
        throw cutOff();
      });
      if (step === 'timeout') throw timedOut(c, limits.jsonBodyMs);
      if (step.done) {
        done = true;
        break;
      }
      size += step.value.byteLength;
      if (size > limits.jsonBodyBytes) throw tooLarge(c, limits.jsonBodyBytes);
      chunks.push(Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength));
    }
  } finally {
    clearTimeout(timer);
    if (!done) source.return?.()?.catch(() => {});
  }
  return Buffer.concat(chunks, size);
}

/** Deepest nesting of arrays and objects, counted outside strings; stops counting past `max`. */
export function nestingDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return deepest;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, within the limits; bytes that are not UTF-8 are "not valid JSON" (400). */
export async function readBodyText(c: Context<AppEnv>): Promise<string> {
  const bytes = await readCapped(c, c.get('limits') ?? DEFAULT_HTTP_LIMITS);
  try {
    // JSON is UTF-8 (RFC 8259 §8.1): bytes that are not are "not valid JSON", not U+FFFD.
    return utf8.decode(bytes);
  } catch {
    throw notJson();
  }
}

export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isJsonMediaType(requestHeader(c, 'content-type'))) {
    const limits = c.get('limits') ?? DEFAULT_HTTP_LIMITS;
    const text = await readBodyText(c);
    let parsed: unknown;
    if (text.trim().length > 0) {
      // RFC 8259 §9 lets a parser limit nesting; checked first because V8 parses a deep body
      // slowly and later code (zod, JSON.stringify) recurses per level. Like any unparseable
      // body, it is answered before the key.
      if (nestingDepth(text, limits.jsonDepth) > limits.jsonDepth) {
        throw invalidRequest(
          [{ in: 'body', path: '', message: `is not valid JSON here: nests deeper than ${limits.jsonDepth} levels` }],
          'The body nests too deeply.',
        );
      }
      try {
        parsed = JSON.parse(text);
      } catch {
        throw notJson();
      }
    }
    // Hono's validators read the body through this cache, never the (consumed) stream. Its
    // json() would parse the text again (half the cost of a body of many keys): hand it ours.
    // (bodyCache is typed as what the methods resolve to, but at run time it holds their
    // promises; and json() is replaced, not cached, so a body of `null` or `0` is not read twice.)
    Object.assign(c.req.bodyCache, { text: Promise.resolve(text) });
    if (parsed !== undefined) Object.assign(c.req, { json: () => Promise.resolve(parsed) });
  }
  await next();
};
