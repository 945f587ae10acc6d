// The sandbox's router (src/sandbox/http/router.ts) answers every request as a
// TrieRouter of the same routes does (what Hono fell back to before, #37): the
// same handlers in the same order with the same parameters, for every route's
// path with values put in, spelled oddly (trailing or doubled slashes, encoded
// characters, a segment more or less), under every method, and for paths drawn
// at random from the routes' own segments. (Hono hands a router the request's
// path, which starts with '/'. A path with a literal '*' is left out: there the
// TrieRouter lists the `*` middleware twice, a quirk of its own; the sandbox
// answers such a path 404 either way, checked at the end.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Result } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';
import { SandboxRouter } from '../../../src/sandbox/http/router.js';
import { useTestSandbox } from '../../helpers/sandbox.js';

const sb = useTestSandbox();

type Route = { method: string; path: string; handler: unknown };

async function sandboxRoutes(): Promise<Route[]> {
  const { buildApp } = await import('../../../src/sandbox/app.js');
  return buildApp(sb.services).app.routes;
}

/** A match as data: each handler (by its index among the routes' handlers) with its parameters' values. */
function answer(result: Result<unknown>, handlers: unknown[]): Array<[number, Record<string, string | undefined>]> {
  const [matched, stash] = result;
  return matched.map(([handler, params]) => {
    const values: Record<string, string | undefined> = {};
    for (const [name, at] of Object.entries(params)) values[name] = stash && typeof at === 'number' ? stash[at] : String(at);
    return [handlers.indexOf(handler), values];
  });
}

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'QUERY'];
const VALUES = ['acc_1', 'campaigns', 'uploads', 'a%2Fb', 'x.json', 'skills'];

/** Each route's path with values put in, and odd spellings of it. */
function pathsOf(routes: Route[]): string[] {
  const paths = new Set<string>(['/', '//', '/observe', '/observe/', '/assets/', '/context//skills', '/nothing/here']);
  for (const { path } of routes) {
    for (const value of VALUES) {
      const filled = path.replace(/:[A-Za-z]+/g, value).replace(/\*$/, value);
      for (const p of [filled, `${filled}/`, `${filled}//`, `/${filled}`, `${filled}/${value}`, filled.replace(/\/[^/]*$/, ''), filled.toUpperCase()])
        paths.add(p);
    }
  }
  return [...paths].filter((p) => p.startsWith('/'));
}

function routers(routes: Route[]) {
  const ours = new SandboxRouter<unknown>();
  const trie = new TrieRouter<unknown>();
  for (const { method, path, handler } of routes) {
    ours.add(method, path, handler);
    trie.add(method, path, handler);
  }
  return { ours, trie, handlers: routes.map((r) => r.handler) };
}

describe('the sandbox router', () => {
  it("Hono's RegExpRouter alone refuses the service's routes (why this router exists)", async () => {
    const routes = await sandboxRoutes();
    const all = new RegExpRouter<unknown>();
    expect(() => {
      for (const { method, path, handler } of routes) all.add(method, path, handler);
      all.match('GET', '/observe/campaigns');
    }).toThrow(/observe|assets/);
  });

  it('answers as a TrieRouter of the same routes, for every route path filled in and spelled oddly, under every method', async () => {
    const routes = await sandboxRoutes();
    const { ours, trie, handlers } = routers(routes);
    const paths = pathsOf(routes);
    expect(paths.length).toBeGreaterThan(1000);
    for (const method of METHODS) {
      for (const path of paths) {
        // Twice: the second answer of a literal path is the kept one.
        for (let i = 0; i < 2; i++) expect(answer(ours.match(method, path), handlers), `${method} ${path}`).toEqual(answer(trie.match(method, path), handlers));
      }
    }
  });

  it('answers as a TrieRouter for paths made at random of the routes’ own segments', async () => {
    const routes = await sandboxRoutes();
    const { ours, trie, handlers } = routers(routes);
    const segments = [...new Set(routes.flatMap((r) => r.path.split('/')))].filter((s) => s !== '*').map((s) => (s.startsWith(':') ? 'v_1' : s));
    const path = fc
      .array(
        fc.oneof(
          fc.constantFrom(...segments),
          fc.string({ maxLength: 4 }).filter((s) => !s.includes('*')),
        ),
        { maxLength: 6 },
      )
      .map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(fc.constantFrom(...METHODS), path, (method, p) => {
        expect(answer(ours.match(method, p), handlers)).toEqual(answer(trie.match(method, p), handlers));
      }),
      { numRuns: 2000 },
    );
  });

  it('serves the sandbox: a literal path, a path with a parameter, and an unknown one', async () => {
    const key = sb.key('full');
    expect((await sb.req('GET', '/context/skills', { key })).status).toBe(200);
    expect((await sb.req('GET', '/context/brands/nobody', { key })).body).toMatchObject({ error: 'not_found' });
    expect((await sb.req('GET', '/context/skills/', { key })).status).toBe(404);
    expect((await sb.req('GET', '/openapi/context.json')).status).toBe(200);
    expect((await sb.req('GET', '/*', { key })).body).toMatchObject({ error: 'not_found' });
  });
});
