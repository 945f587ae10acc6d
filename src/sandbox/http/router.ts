// The sandbox's router (#37): Hono's RegExpRouter where it can serve, and the
// TrieRouter's answers, kept, for the paths it cannot.
//
// Hono's default router tries RegExpRouter (one regular expression for every
// route) and, when that refuses the routes, falls back to the slower TrieRouter
// for good. It refuses the service's: a literal segment and a parameter may not
// be siblings, and `/observe/campaigns` (a stored read) sits beside
// `/observe/{advertiserId}/campaigns` (a live read), `/assets/uploads` beside
// `/assets/{id}/finalize`. The paths are the contract's, so they stay.
//
// Only literal routes (no parameter, no wildcard) make those pairs, and a literal
// route matches exactly one path. So: a request for one of those paths is matched
// by a TrieRouter of every route, once per method, and the answer is kept (it
// depends on nothing else: no parameters to capture; Hono only reads a match);
// every other path cannot match a literal route, and RegExpRouter, given every
// other route, answers it. test/sandbox/platform/router.test.ts checks the answers
// against a TrieRouter of every route.
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';

/** A path with no parameter (`:name`) and no wildcard (`*`): it matches itself only. */
export const isLiteralPath = (path: string): boolean => !/[:*]/.test(path);

interface Built<T> {
  literalPaths: ReadonlySet<string>;
  trie: TrieRouter<T>;
  regExp: RegExpRouter<T>;
  /** The trie's answer for `${method} ${path}` of a literal path: bounded by the literal paths × the methods Node parses. */
  kept: Map<string, Result<T>>;
}

export class SandboxRouter<T> implements Router<T> {
  name = 'SandboxRouter (RegExpRouter, kept TrieRouter answers for literal paths)';
  #routes: Array<[string, string, T]> = [];
  #built: Built<T> | undefined;

  add(method: string, path: string, handler: T): void {
    if (this.#built) throw new Error('Can not add a route since the matcher is already built.');
    this.#routes.push([method, path, handler]);
  }

  match(method: string, path: string): Result<T> {
    const built = (this.#built ??= this.#build());
    if (!built.literalPaths.has(path)) return built.regExp.match(method, path);
    const key = `${method} ${path}`;
    let result = built.kept.get(key);
    if (result === undefined) {
      result = built.trie.match(method, path);
      built.kept.set(key, result);
    }
    return result;
  }

  #build(): Built<T> {
    const trie = new TrieRouter<T>();
    const regExp = new RegExpRouter<T>();
    const literalPaths = new Set<string>();
    for (const [method, path, handler] of this.#routes) {
      trie.add(method, path, handler);
      if (isLiteralPath(path)) literalPaths.add(path);
      else regExp.add(method, path, handler);
    }
    return { literalPaths, trie, regExp, kept: new Map() };
  }
}
