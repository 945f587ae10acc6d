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

// Each world is built once for the file and only read after (the full parse is ~0.5 s, the fast one ~0.2 s, and
// loading either into a store ~1 s): the first test parses the whole thing, the others reuse what it made.
let parsed: World | undefined;
const full = (): World => (parsed ??= parseWorld(demoWorldInput(), 'the demo world'));
let quick: World | undefined;
const fast = (): World => (quick ??= demoWorld());

describe('the demo world without the per-start check of its insights', () => {
  it('passes the whole fixture schema, insight rows included', () => {
    expect(() => full()).not.toThrow();
  });

  it('equals the fully parsed world', () => {
    expect(fast()).toEqual(full());
    expect(fast().advertisers.reduce((n, a) => n + (a.insights?.length ?? 0), 0)).toBeGreaterThan(30_000);
  });

  it('writes the very same store as the fully parsed world', () => {
    const fastStore = storeDump(fast());
    const fullStore = storeDump(full());
    expect(Object.keys(fastStore)).toEqual(Object.keys(fullStore));
    for (const table of Object.keys(fullStore)) expect({ table, rows: fastStore[table] }).toEqual({ table, rows: fullStore[table] });
    expect(fullStore.provider_insights!.length).toBeGreaterThan(30_000);
    expect(fullStore.observe_rows!.length).toBeGreaterThan(1_000);
  }, 60_000);
});
