// Which local files an upload command means: files as named, directories
// walked (dot files and dot directories skipped), and quoted glob patterns
// (`*`, `?`, `**`; the shell usually expands them, CI YAML often does not).
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { LocalFile } from './upload.js';

const GLOB_CHARS = /[*?]/;

export function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, out);
    else if (e.isFile()) out.push(p);
  }
}

export interface Expanded {
  files: LocalFile[];
  /** Inputs that name nothing (the command refuses them before any request). */
  problems: string[];
}

export async function expandInputs(inputs: readonly string[], cwd: string): Promise<Expanded> {
  const paths: Array<{ path: string; shown: string }> = [];
  const problems: string[] = [];
  for (const input of inputs) {
    const abs = resolve(cwd, input);
    const st = await stat(abs).catch(() => undefined);
    if (st?.isFile()) paths.push({ path: abs, shown: input });
    else if (st?.isDirectory()) {
      const found: string[] = [];
      await walk(abs, found);
      if (found.length === 0) problems.push(`${input}: directory has no files`);
      for (const p of found) paths.push({ path: p, shown: join(input, relative(abs, p)) });
    } else if (st) problems.push(`${input}: not a regular file or directory`);
    else if (GLOB_CHARS.test(input)) {
      const parts = input.split('/');
      const fixed = parts.findIndex((p) => GLOB_CHARS.test(p));
      const base = resolve(cwd, parts.slice(0, fixed).join('/') || '.');
      const re = globToRegExp(parts.slice(fixed).join('/'));
      const found: string[] = [];
      await walk(base, found).catch(() => undefined);
      const matched = found.filter((p) => re.test(relative(base, p).split(sep).join('/')));
      if (matched.length === 0) problems.push(`${input}: no file matches`);
      for (const p of matched) paths.push({ path: p, shown: relative(cwd, p) || p });
    } else problems.push(`${input}: no such file or directory`);
  }
  const seen = new Set<string>();
  const files: LocalFile[] = [];
  for (const p of paths) {
    if (seen.has(p.path)) continue;
    seen.add(p.path);
    const st = await stat(p.path);
    files.push({ path: p.path, shown: p.shown, filename: basename(p.path), size: st.size, mtimeMs: st.mtimeMs });
  }
  return { files, problems };
}

/** Run `fn` over items with at most `concurrency` at once; results in input order. */
export async function runPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
