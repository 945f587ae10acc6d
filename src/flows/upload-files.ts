// Which local files an upload command means: files as named, directories
// walked (dot files and dot directories skipped), and quoted glob patterns
// (the shell usually expands them, CI YAML often does not).
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import type { LocalFile } from './upload.js';

// A quoted pattern the shell did not expand: `*`, `?`, `**`, `[ab]`, `{png,jpg}`
// (tinyglobby over picomatch, bash's rules). An input naming an existing file
// or directory is taken as it is, even with such characters in its name.
const GLOB_CHARS = /[*?[\]{}]/;

/** Files matching a pattern, sorted; dot files skipped as in a walked directory. */
async function globFiles(pattern: string, cwd: string): Promise<string[]> {
  // Loaded only when a pattern is given: off the --help/--version path.
  const { glob } = await import('tinyglobby');
  // The literal folders before the first pattern segment are the base, so
  // `../art/*.png` and `/abs/dir/*.png` match outside the working directory.
  const parts = pattern.split('/');
  const fixed = parts.findIndex((p) => GLOB_CHARS.test(p));
  const base = resolve(cwd, parts.slice(0, fixed).join('/') || (pattern.startsWith('/') ? '/' : '.'));
  const found = await glob(parts.slice(fixed).join('/'), { cwd: base, absolute: true, onlyFiles: true, dot: false, expandDirectories: false });
  return found.map((p) => resolve(p)).sort();
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
      const matched = await globFiles(input, cwd);
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
