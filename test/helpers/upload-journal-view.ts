// The upload journal as a run reads it (#37): every content of the scopes'
// store files (and any content file of an older adops), and every record of the
// runs' logs under <config dir>/uploads/runs/, the newest `gen` of each content
// winning, contents left with no entries dropped.
// What the tests look at where they looked at the store's files alone: a run
// killed before its end left its records in its log, not yet folded.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentOf, genOf, type ContentFile } from '../../src/state/upload-entry.js';
import { latestOf, LOG_SUFFIX, RUNS_DIR, type LogRecord } from '../../src/state/upload-log.js';
import { contentsOf, STORE_FILE } from '../../src/state/upload-store.js';

function listed(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
}

/** Content by name relative to `root` (`uploads/`), `/`-separated. */
export function journalView(root: string): Map<string, ContentFile> {
  const view = new Map<string, ContentFile>();
  for (const name of listed(root).filter((f) => f.endsWith('.json') && !f.startsWith(`${RUNS_DIR}/`))) {
    const text = readFileSync(join(root, name), 'utf8');
    if (name.endsWith(`/${STORE_FILE}`)) {
      const scope = name.slice(0, -STORE_FILE.length);
      for (const [content, c] of contentsOf(text) ?? []) if (genOf(c) > genOf(view.get(scope + content))) view.set(scope + content, c);
      continue;
    }
    const c = contentOf(JSON.parse(text));
    if (c && genOf(c) >= genOf(view.get(name))) view.set(name, c);
  }
  const logged = new Map<string, LogRecord>();
  for (const log of listed(join(root, RUNS_DIR)).filter((f) => f.endsWith(LOG_SUFFIX))) latestOf(readFileSync(join(root, RUNS_DIR, log), 'utf8'), logged);
  for (const [file, r] of logged) if (r.gen > genOf(view.get(file))) view.set(file, { ...r.content, gen: r.gen });
  for (const [file, c] of view) if (c.entries.length === 0) view.delete(file);
  return view;
}
