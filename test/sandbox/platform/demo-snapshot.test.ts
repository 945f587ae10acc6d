// The prebuilt demo world (#16, src/sandbox/fixtures/snapshot.ts): a store
// started from the image equals one that generated the world at the same
// clock (every table, row and column: the secret aside, random per store, and
// the migrations' applied_at, the wall clock of each open), in memory and on a
// new file. Anything else falls back to generating: fixtures, an existing
// store, an image of another schema version, a damaged or missing image.
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDemoWorld } from '../../../src/sandbox/fixtures/demo-plan.js';
import { openDemoSnapshot, SNAPSHOT_CLOCK } from '../../../src/sandbox/fixtures/snapshot.js';
import { writeDemoSnapshot } from '../../../src/sandbox/fixtures/snapshot-build.js';
import { openDatabase, storeSecret } from '../../../src/sandbox/store/db.js';
import type { Database } from '../../../src/sandbox/store/db.js';
import { imagesInMemory, openSqlite } from '../../../src/sandbox/store/sqlite.js';
import { createServices } from '../../../src/sandbox/services.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { StartOptions } from '../../../src/sandbox/index.js';
import { DEMO_KEYS } from '../../../src/sandbox/fixtures/demo.js';
import { minimalWorld } from '../../helpers/sandbox.js';
import { ManualClock } from '../clock.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * Every row of every table (secret and applied_at aside), in a stable order. SQLite writes each row as one text,
 * every column through quote() (its SQL literal: text quoted, a blob in hex, a real in as many digits as give it back
 * exactly, so an integer 5 and a real 5.0 differ too): the same rows as building an object per row and JSON of it in
 * this process, which took ~0.6 s of CPU a dump against ~0.13 s (70,691 rows; 12 dumps a run of this file).
 */
function dump(db: Database): Record<string, string[]> {
  const tables = db.prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all().map(String);
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const columns = db.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}')`).pluck().all().map(String);
    const row = columns.map((c) => (table === 'migrations' && c === 'applied_at' ? `'applied_at'` : `quote("${c}")`)).join(` || ',' || `);
    out[table] = db
      .prepare<[], string>(`SELECT ${row} FROM "${table}"${table === 'sandbox_meta' ? ` WHERE key <> 'secret'` : ''}`)
      .pluck()
      .all()
      .map(String)
      .sort();
  }
  return out;
}

/** The demo world generated, loaded and ingested into a new in-memory store at `clock`. */
function generated(clock: ManualClock): Record<string, string[]> {
  const db = openDatabase(':memory:');
  try {
    loadDemoWorld(createServices({ db, clock, secret: storeSecret(db), dataDir: null, filesDir: tempDir('adops-demo-snapshot-') }));
    return dump(db);
  } finally {
    db.close();
  }
}

const expectSame = (actual: Record<string, string[]>, expected: Record<string, string[]>) => {
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const table of Object.keys(expected)) expect({ table, rows: actual[table] }).toEqual({ table, rows: expected[table] });
};

let image: string;
const clock = new ManualClock(Date.UTC(2026, 10, 24, 9, 30, 15, 123));
let expected: Record<string, string[]>;
beforeAll(() => {
  image = join(tempDir('adops-demo-snapshot-'), 'demo-world.db');
  writeDemoSnapshot(image);
  expected = generated(clock);
  expect(expected.observe_rows!.length).toBeGreaterThan(1_000);
  expect(expected.observe_insights!.length).toBeGreaterThan(30_000);
}, 120_000);

describe('a store started from the prebuilt demo world', () => {
  // node:sqlite before deserialize() cannot hold an image in memory: it generates (below).
  it.runIf(imagesInMemory())(
    'in memory: equals the generated world at the same clock, every table, row and column',
    () => {
      const db = openDemoSnapshot(image, ':memory:', clock);
      expect(db).toBeDefined();
      try {
        expectSame(dump(db!), expected);
        expect(storeSecret(db!)).toHaveLength(32);
      } finally {
        db!.close();
      }
    },
    60_000,
  );

  it('on a new file: the same, and the file is a store of its own (WAL)', () => {
    const file = join(tempDir('adops-demo-snapshot-'), 'sub', 'sandbox.db');
    const db = openDemoSnapshot(image, file, clock);
    expect(db).toBeDefined();
    try {
      expectSame(dump(db!), expected);
      expect(db!.prepare('PRAGMA journal_mode').pluck().get()).toBe('wal');
    } finally {
      db!.close();
    }
    const reopened = openSqlite(file, { readonly: true });
    try {
      expectSame(dump(reopened), expected);
    } finally {
      reopened.close();
    }
  }, 60_000);

  it('the image holds no secret and carries its own clock until a start moves it', () => {
    const db = openSqlite(image, { readonly: true });
    try {
      expect(db.prepare(`SELECT 1 FROM sandbox_meta WHERE key = 'secret'`).get()).toBeUndefined();
      expect(db.prepare('SELECT DISTINCT created_at FROM observe_rows').pluck().all()).toEqual([SNAPSHOT_CLOCK]);
    } finally {
      db.close();
    }
  });
});

async function start(opts: StartOptions) {
  const sb = await startSandbox({ host: '127.0.0.1', port: 0, quiet: true, clock, ...opts });
  try {
    const res = await fetch(`${sb.url}/observe/campaigns?advertiserId=acc_acme_a_001&limit=1`, {
      headers: { authorization: `Bearer ${DEMO_KEYS['acme-full']}` },
    });
    return { world: sb.world, status: res.status, keys: sb.keys.map((k) => k.label), db: dump(sb.services.db) };
  } finally {
    await sb.close();
  }
}

describe('startSandbox and the image', () => {
  it('takes it for the demo world on a new store, in memory and on a file, and answers from it', async () => {
    const memory = await start({ data: ':memory:', snapshot: image });
    expect(memory).toMatchObject({ world: imagesInMemory() ? 'snapshot' : 'generated', status: 200 });
    expectSame(memory.db, expected);
    const file = await start({ data: join(tempDir('adops-demo-snapshot-'), 'sandbox.db'), snapshot: image });
    expect(file).toMatchObject({ world: 'snapshot', status: 200 });
    expectSame(file.db, expected);
  }, 60_000);

  it('a store that already holds a world keeps it; one copied but not yet moved to the clock is moved at the next start', async () => {
    const data = join(tempDir('adops-demo-snapshot-'), 'sandbox.db');
    copyFileSync(image, data); // as a start that stopped right after copying leaves it
    const again = await start({ data, snapshot: image });
    expect(again.world).toBe('kept');
    expectSame(again.db, expected);
  }, 60_000);

  it('generates the world where the image cannot be taken: fixtures, no image, another schema version, a damaged file, null', async () => {
    const fixtures = await start({ data: ':memory:', snapshot: image, world: minimalWorld() });
    expect(fixtures.world).toBe('generated');
    expect(fixtures.keys).toEqual(['full']);

    const older = join(tempDir('adops-demo-snapshot-'), 'demo-world.db');
    copyFileSync(image, older);
    const db = openSqlite(older);
    db.prepare(`DELETE FROM migrations WHERE name = (SELECT max(name) FROM migrations)`).run();
    db.close();
    const damaged = join(tempDir('adops-demo-snapshot-'), 'demo-world.db');
    writeFileSync(damaged, 'not a database, whatever its name says'.repeat(200));
    const missing = join(tempDir('adops-demo-snapshot-'), 'missing.db');
    const file = () => join(tempDir('adops-demo-snapshot-'), 'sandbox.db');
    // Each way an image is refused, on each store it is refused for in its own way (openDemoSnapshot: an image in
    // memory is judged as it is opened, one for a file before it is copied); a missing image and none at all are
    // refused before the store matters, so each is tried on one kind of store. Each kind of store generates.
    const cases: Array<[string | null, string]> = [
      [missing, ':memory:'],
      [null, file()],
      [older, ':memory:'],
      [older, file()],
      [damaged, ':memory:'],
      [damaged, file()],
    ];
    for (const [snapshot, data] of cases) {
      const r = await start({ data, snapshot });
      expect({ snapshot, data, world: r.world, status: r.status }).toEqual({ snapshot, data, world: 'generated', status: 200 });
      expectSame(r.db, expected);
      if (data !== ':memory:') expect(existsSync(`${data}.part-${process.pid}`)).toBe(false);
    }
  }, 120_000);
});
