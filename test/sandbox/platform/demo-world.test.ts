// The demo world's fast path (#16): demoWorld() skips the schema's check of the
// ~35k generated insight rows on every start. This test checks them once with
// the whole schema, and shows that the fast world equals the fully parsed one
// and writes the very same store (every table, every row, every column).
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { demoWorld, demoWorldInput } from '../../../src/sandbox/fixtures/demo.js';
import { loadWorld, parseWorld } from '../../../src/sandbox/fixtures/load.js';
import type { World } from '../../../src/sandbox/fixtures/schema.js';
import { openDatabase, storeSecret } from '../../../src/sandbox/store/db.js';
import { createServices } from '../../../src/sandbox/services.js';
import { ManualClock } from '../clock.js';
import { tempDir } from '../../helpers/temp.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every row of every table of a store holding `world`, loaded at a fixed time (the secret is random per store: left out). */
function storeDump(world: World): Record<string, string[]> {
  const db = openDatabase(':memory:');
  const filesDir = tempDir('adops-demo-world-');
  dirs.push(filesDir);
  try {
    const services = createServices({ db, clock: new ManualClock(), secret: storeSecret(db), dataDir: null, filesDir });
    loadWorld(services, world);
    const tables = db
      .prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all()
      .filter((t) => typeof t === 'string');
    const dump: Record<string, string[]> = {};
    for (const table of tables) {
      if (table === 'migrations') continue; // applied_at is the wall clock of each open
      const where = table === 'sandbox_meta' ? ` WHERE key <> 'secret'` : '';
      // In a stable order whatever the table's keys (some have no rowid).
      dump[table] = db
        .prepare(`SELECT * FROM "${table}"${where}`)
        .all()
        .map((row) => JSON.stringify(row))
        .sort();
    }
    return dump;
  } finally {
    db.close();
  }
}

describe('the demo world without the per-start check of its insights', () => {
  it('passes the whole fixture schema, insight rows included', () => {
    expect(() => parseWorld(demoWorldInput(), 'the demo world')).not.toThrow();
  });

  it('equals the fully parsed world', () => {
    const fast = demoWorld();
    expect(fast).toEqual(parseWorld(demoWorldInput(), 'the demo world'));
    expect(fast.advertisers.reduce((n, a) => n + (a.insights?.length ?? 0), 0)).toBeGreaterThan(30_000);
  });

  it('writes the very same store as the fully parsed world', () => {
    const fast = storeDump(demoWorld());
    const full = storeDump(parseWorld(demoWorldInput(), 'the demo world'));
    expect(Object.keys(fast)).toEqual(Object.keys(full));
    for (const table of Object.keys(full)) expect({ table, rows: fast[table] }).toEqual({ table, rows: full[table] });
    expect(full.provider_insights!.length).toBeGreaterThan(30_000);
    expect(full.observe_rows!.length).toBeGreaterThan(1_000);
  }, 60_000);
});
