// Where the flow tools keep the change files they write (a plan's fix or
// suggestion, changes given inline), their journals and undo files: one
// directory, made 0700 on first use (by default `mcp` under the config dir,
// so an undo file outlives the server that wrote it). A change file given
// inline is named by the hash of its bytes (and of the caller's key, if any),
// so the same changes sent twice are one file with one journal: the second
// call sends nothing again; a new key is a new round of the same changes.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from '../../state/durable-write.js';

export class ChangeDir {
  private made = false;
  constructor(readonly dir: string) {}

  private path(name: string): string {
    if (!this.made) ensureDir(this.dir, 'the change files of adops mcp');
    this.made = true;
    return join(this.dir, name);
  }

  /** A new file name (nothing there yet): `<stem>-<uuid>.<ext>`. */
  fresh(stem: string, ext: string): string {
    return this.path(`${stem.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${randomUUID()}.${ext}`);
  }

  /** The change file holding these bodies (NDJSON, one a line), written once; another `key` makes another file. */
  inline(bodies: readonly unknown[], key?: string): string {
    const text = bodies.map((b) => JSON.stringify(b) + '\n').join('');
    const named = key === undefined ? text : `${key}\n${text}`;
    const file = this.path(`changes-${createHash('sha256').update(named).digest('hex').slice(0, 16)}.ndjson`);
    if (!existsSync(file)) writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    return file;
  }
}
