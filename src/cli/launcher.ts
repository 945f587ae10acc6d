// What a launcher does with the entry decision (route.ts), in one place for both launchers (#37): bin/adops.js (the
// npm install; it requires this as dist/bundle/route.cjs, built from this file) and scripts/sea-main.mjs (the single
// executable's main, bundled from it). Each gives its own way to load a part (a file of dist/bundle, an asset of the
// executable) and to run the whole CLI; what answers which decision, and how text reaches fd 1, is here.
import { writeSync } from 'node:fs';
import type { HelpRoute, Route } from './route.js';

export { route } from './route.js';

/** How a launcher loads each part: quick.cjs, help-pages.cjs, fast-read.cjs, and the whole CLI. */
export interface LauncherParts {
  version: () => string;
  quick: () => { helpPage(help: HelpRoute, version: () => string, helpPages?: (first: string) => Readonly<Record<string, string>>): string | undefined };
  helpPages: (first: string) => Readonly<Record<string, string>>;
  fastRead: () => { runFast(argv: readonly string[]): Promise<boolean> };
  /** `assets sync`'s own bundle (sync-run.cjs); a launcher without one (the single executable) runs the whole CLI. */
  syncRun?: () => { runSync(argv: readonly string[]): Promise<boolean> };
  /** `mutations apply`'s own bundle (apply-run.cjs); a launcher without one (the single executable) runs the whole CLI. */
  applyRun?: () => { runApply(argv: readonly string[]): Promise<boolean> };
  whole: () => void;
}

/** A one-command bundle's run where the launcher has one; the whole CLI without one, or for what it declines (false). */
function runOrWhole(run: (() => Promise<boolean>) | undefined, parts: LauncherParts): void {
  if (!run) return parts.whole();
  void run().then((ran) => ran || parts.whole());
}

/** Answers the decision: the version, a help page, a stored read (what it declines: the whole CLI), else the whole CLI. */
export function answer(decision: Route, argv: readonly string[], parts: LauncherParts): void {
  switch (decision.kind) {
    case 'version':
      return print(`${parts.version()}\n`);
    case 'help': {
      // The top page from quick.cjs, a group's or command's from the pages the build rendered (help-pages.cjs);
      // what they do not answer (the tree, an unknown command's error) is the registry's: the whole CLI.
      const page = parts.quick().helpPage(decision, parts.version, parts.helpPages);
      return page === undefined ? parts.whole() : print(page);
    }
    case 'stored-read':
      // A stored list (`observe campaigns --json`, the loop of many scripts) runs from its own bundle; what it
      // declines (false: nothing written, nothing sent) goes to the whole CLI.
      return runOrWhole(() => parts.fastRead().runFast(argv), parts);
    case 'sync': {
      // A sync (a re-run pipeline's step, #37) from one CommonJS file: no ESM loader, no ~60 chunks resolved and read.
      const syncRun = parts.syncRun;
      return runOrWhole(syncRun && (() => syncRun().runSync(argv)), parts);
    }
    case 'apply': {
      // A file of changes (a cron job's step, #37) from one CommonJS file likewise; what it declines: the whole CLI.
      const applyRun = parts.applyRun;
      return runOrWhole(applyRun && (() => applyRun().runApply(argv)), parts);
    }
    default: // 'complete', 'cli'
      return parts.whole();
  }
}

/**
 * Straight to fd 1: process.stdout on a pipe loads net and the streams (~9 ms, a fifth of bare node's start-up);
 * node:fs is loaded by Node's own start already.
 */
export function print(out: string): void {
  const buf = Buffer.from(out);
  let done = 0;
  try {
    while (done < buf.length) done += writeSync(1, buf, done);
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? err.code : undefined;
    if (code === 'EAGAIN')
      process.stdout.write(buf.subarray(done)); // a non-blocking fd 1
    else if (code !== 'EPIPE') throw err; // the reader left (`adops --help | head -1`): done
  }
}
