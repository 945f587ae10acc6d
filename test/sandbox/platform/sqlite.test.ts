// The sandbox's SQLite interface answers alike on both drivers (store/sqlite.ts):
// plain rows with Buffers for blobs, better-sqlite3's error codes, extra named
// parameters ignored, undefined bound as NULL, nested transactions as savepoints.
// Each driver is checked where this Node can run it: better-sqlite3 on Node 20
// (npm test here), node:sqlite on 22 and 24 (.ci/run runs this file there).
import { describe, expect, it } from 'vitest';
import { nativeModuleProblem, openSqlite, sqliteDriver } from '../../../src/sandbox/store/sqlite.js';
import { installProblem } from '../../../src/cli/install-problem.js';
import { ensureBuilt, runAdops } from '../../helpers/cli.js';

const runnable = (driver: string): boolean => {
  try {
    openSqlite(':memory:', {}, { ADOPS_SQLITE_DRIVER: driver }).close();
    return true;
  } catch {
    return false;
  }
};
const drivers = ['node:sqlite', 'better-sqlite3'].filter(runnable);

it('the default driver is one this Node runs: node:sqlite from Node 22.15, else better-sqlite3', () => {
  const major = Number(process.versions.node.split('.')[0]);
  expect(sqliteDriver({})).toBe(major >= 22 ? 'node:sqlite' : 'better-sqlite3');
  expect(drivers).toContain(sqliteDriver({}));
  expect(() => sqliteDriver({ ADOPS_SQLITE_DRIVER: 'sqlite3' })).toThrow(/ADOPS_SQLITE_DRIVER=sqlite3 names no SQLite driver/);
});

describe.each(drivers)('%s', (driver) => {
  const open = () => {
    const db = openSqlite(':memory:', {}, { ADOPS_SQLITE_DRIVER: driver });
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, b BLOB)');
    return db;
  };

  it('rows are plain objects, blobs Buffers; pluck answers the first column', () => {
    const db = open();
    db.prepare('INSERT INTO t (name, b) VALUES (@name, @b)').run({ name: 'a', b: Buffer.from('hi'), extra: 'ignored' });
    const row = db.prepare('SELECT * FROM t').get() as { name: string; b: Buffer };
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Buffer.isBuffer(row.b) && row.b.toString()).toBe('hi');
    expect(db.prepare('SELECT name FROM t').pluck().all()).toEqual(['a']);
    expect(db.prepare('SELECT ? AS v').get(undefined)).toEqual({ v: null });
    db.close();
    expect(db.open).toBe(false);
  });

  it('a UNIQUE violation carries SQLITE_CONSTRAINT_UNIQUE', () => {
    const db = open();
    const ins = db.prepare('INSERT INTO t (name) VALUES (?)');
    ins.run('a');
    expect(() => ins.run('a')).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_UNIQUE' }));
  });

  it('transactions commit, roll back on throw, and nest', () => {
    const db = open();
    const add = (name: string) => db.prepare('INSERT INTO t (name) VALUES (?)').run(name);
    db.transaction(() => {
      add('outer');
      expect(() =>
        db.transaction(() => {
          add('inner');
          throw new Error('no');
        })(),
      ).toThrow('no');
    })();
    expect(() =>
      db.transaction(() => {
        add('gone');
        throw new Error('boom');
      })(),
    ).toThrow('boom');
    expect(db.prepare('SELECT name FROM t').pluck().all()).toEqual(['outer']);
  });
});

describe('a native module built for another Node', () => {
  // The message Node gives (process.dlopen), as seen running a Node-20 build under Node 22.
  const dlopen = Object.assign(
    new Error(
      "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
    ),
    { code: 'ERR_DLOPEN_FAILED' },
  );

  it('says to reinstall under this Node, not "a bug in adops"', () => {
    const problem = nativeModuleProblem(dlopen)!;
    expect(problem.code).toBe('native_module_mismatch');
    expect(problem.message).toContain('NODE_MODULE_VERSION 115');
    expect(problem.hint).toMatch(/reinstall adops under this Node/);
    expect(installProblem(problem)).toEqual({ code: 'native_module_mismatch', message: problem.message, hint: problem.hint });
    expect(installProblem(dlopen)?.hint).toMatch(/reinstall adops under this Node/);
  });

  it('a missing optional module says what is missing and that the client works without it', () => {
    const missing = Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
    expect(nativeModuleProblem(missing)).toMatchObject({ code: 'sqlite_unavailable', hint: expect.stringMatching(/Node 22\.15/) });
    expect(nativeModuleProblem(new Error('disk full'))).toBeUndefined();
  });
});

// Real, not simulated: under a Node other than the one better-sqlite3 was built
// for (.ci/run runs this file on Node 22 and 24 with the Node 20 build), the
// built CLI forced onto better-sqlite3 says to reinstall, exit 1.
const mismatched =
  !drivers.includes('better-sqlite3') &&
  (() => {
    try {
      openSqlite(':memory:', {}, { ADOPS_SQLITE_DRIVER: 'better-sqlite3' });
    } catch (err) {
      return (err as { code?: string }).code === 'native_module_mismatch';
    }
    return false;
  })();

it.runIf(mismatched)('the built CLI under another Node major with the mismatched module: reinstall, exit 1', async () => {
  ensureBuilt();
  const r = await runAdops(['sandbox', 'serve', '--port', '0', '--data', ':memory:'], { env: { ADOPS_SQLITE_DRIVER: 'better-sqlite3' } });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('native_module_mismatch');
  expect(r.stderr).toMatch(/hint: reinstall adops under this Node/);
  expect(r.stderr).not.toMatch(/bug in adops/);
});
