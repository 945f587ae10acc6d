// The upload journal's store (#37, session 3): ONE file per scope (service and
// target), `uploads/<scope>/contents.json`, holding every content of that scope
// by its name (`<size>-<sha256|pending>.json`, the name a log record gives it),
// each with its `gen`. A fold (upload-fold.ts) rewrites it once per scope it
// touches: one durable write per run, where one file per content made a sync of
// 300 files pay 300 (temp file, fsync, rename) at its end.
//
// A content file of an adops before this one (`uploads/<scope>/<name>`, alone)
// is still read: the newest `gen` of it, this file and the logs wins, so an
// upgrade neither forgets an upload nor sends it twice. Nothing writes one any more.
//
// Read through a cache keyed by the file's identity (inode, size, change
// times: a fold replaces it by rename), so a run of N files parses it once, and
// sees at once what another run folded meanwhile. A file that is not a store
// (cut short, garbage) is read as empty and, when the reader asks (under a
// content's lock), moved aside as `.corrupt-<time>`; one the disk will not let
// adops read stops the run naming it (read-back.ts).
import { readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord, printableJson } from '../client/json.js';
import { removeFile, writeDurablyAsync } from './durable-write.js';
import { errnoOf, guardWrite } from './errors.js';
import { readStoreFile } from './read-back.js';
import { contentOf, type ContentFile } from './upload-entry.js';

export const STORE_FILE = 'contents.json';
const WHAT = 'the upload journal';

export type Contents = Map<string, ContentFile>;

/** The contents of a store file's text; undefined when it is not one. */
export function contentsOf(text: string): Contents | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || doc.v !== 3 || !isRecord(doc.contents)) return undefined;
  const contents: Contents = new Map();
  for (const [name, c] of Object.entries(doc.contents)) {
    const content = contentOf(c);
    if (!content) return undefined;
    contents.set(name, content);
  }
  return contents;
}

/** A store file's text: one JSON document, names sorted (a stable file for the same contents). */
export function storeText(contents: Contents): string {
  const sorted = [...contents].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return printableJson({ v: 3, contents: Object.fromEntries(sorted) }) + '\n';
}

/** Moves a file that is not a store aside, its bytes kept; the new name. */
export function setAside(file: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  guardWrite(file, WHAT, () => renameSync(file, aside));
  return aside;
}

/** The names in a directory; none when it is not there. */
function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return [];
    throw err;
  }
}

/** The content files an adops before the store file left in scope directory `dir` (one JSON file per content). */
export function legacyContentNames(dir: string): Set<string> {
  return new Set(listDir(dir).filter((n) => n.endsWith('.json') && n !== STORE_FILE));
}

/** What identifies one version of a file (a fold writes a new file and renames it over the old). */
function versionOf(file: string): string {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : 'absent';
  } catch {
    return 'unknown'; // the read below names the failure
  }
}

/** The store files of one journal, each read again only when it changed. */
export class UploadStoreFiles {
  private readonly cache = new Map<string, { version: string; contents: Contents; corrupt: boolean }>();

  constructor(private readonly onSetAside?: (file: string, aside: string) => void) {}

  /**
   * The contents of scope directory `dir` as on disk now; a corrupt file moved aside when
   * `setAsideCorrupt`. With `asRead`, as last read when it was read before (a look).
   */
  read(dir: string, setAsideCorrupt: boolean, asRead = false): Contents {
    const cached = this.cache.get(dir);
    if (asRead && cached && !(cached.corrupt && setAsideCorrupt)) return cached.contents;
    const file = join(dir, STORE_FILE);
    const version = versionOf(file);
    if (cached && version !== 'unknown' && cached.version === version && !(cached.corrupt && setAsideCorrupt)) return cached.contents;
    const text = readStoreFile(file, WHAT);
    const contents = text === undefined ? new Map<string, ContentFile>() : contentsOf(text);
    if (contents) {
      this.cache.set(dir, { version, contents, corrupt: false });
      return contents;
    }
    if (setAsideCorrupt) {
      this.onSetAside?.(file, setAside(file));
      this.cache.delete(dir);
    } else this.cache.set(dir, { version, contents: new Map(), corrupt: true });
    return new Map();
  }
}

/**
 * Folds `records` (name → the newest record of a log) into scope directory `dir`'s store file:
 * a record newer than what the store (or an older adops's own content file, `legacyGen`) holds
 * replaces it; one that emptied its content drops it, unless `keepEmpty(name)` (another log
 * still names it, or an old content file would be read again): then an empty content with the
 * higher gen stays, a tombstone. One durable write, none when nothing changed. The caller
 * holds the store's fold lock.
 */
export async function foldIntoStore(
  dir: string,
  records: ReadonlyMap<string, { gen: number; content: ContentFile }>,
  o: { legacyGen: (name: string) => number; keepEmpty: (name: string) => boolean },
): Promise<void> {
  const file = join(dir, STORE_FILE);
  const text = readStoreFile(file, WHAT);
  let contents = text === undefined ? new Map<string, ContentFile>() : contentsOf(text);
  if (!contents) {
    setAside(file); // its bytes kept for a person; the records folded here are what is known now
    contents = new Map();
  }
  let changed = false;
  for (const [name, r] of records) {
    if (r.gen <= Math.max(contents.get(name)?.gen ?? 0, o.legacyGen(name))) continue;
    changed = true;
    if (r.content.entries.length === 0 && !o.keepEmpty(name)) contents.delete(name);
    else contents.set(name, { ...r.content, gen: r.gen });
  }
  if (!changed) return;
  // Nothing left: no file (a scope whose every reservation was dropped leaves nothing behind).
  if (contents.size === 0) removeFile(file, WHAT);
  else await writeDurablyAsync(file, storeText(contents), WHAT);
}
