// PageCache (store/page-cache.ts): a body is kept while the store's write
// generation stands still, and never one made inside a transaction or while the
// store changed under it; bounded by bytes, least recently used first out. The
// HTTP side (a kept page is the very answer a fresh read gives, and no write
// lets an old one out) is in test/sandbox/observe/stored-reads.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import type { Database } from '../../../src/sandbox/store/db.js';
import { PageCache } from '../../../src/sandbox/store/page-cache.js';
import type { KeyOwner } from '../../../src/sandbox/store/page-cache.js';
import type { Permission } from '../../../src/contract/ids.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('adops-page-cache-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store with one table `t`, closed after `fn`. */
function withStore(fn: (db: Database) => void, path = ':memory:'): void {
  const db = openDatabase(path);
  try {
    db.exec('CREATE TABLE IF NOT EXISTS t (x)');
    fn(db);
  } finally {
    db.close();
  }
}

let orgs = 0;
/** A write to a table stored reads read (an organization added): it moves the read generation. */
const writeRead = (db: Database) =>
  db.prepare(`INSERT INTO organizations (id, name, subscribed, paywall_url) VALUES (?, 'o', 1, 'https://pay.example')`).run(`org_w${++orgs}`);

/** What a key resolves to (authenticate's answer), for `orgId`. */
const owner = (orgId: string, expiresAt: number | null): KeyOwner => ({
  orgId,
  memberId: 'mem_a',
  keyId: 'key_a',
  permissions: new Set<Permission>(['observe:read']),
  expiresAt,
});

/** A key lookup that finds no key (authenticate throws then). */
const refuse = (): never => {
  throw new Error('does not resolve');
};

/** Bodies made from text, counted. */
function counter() {
  let made = 0;
  const make = (text: string) => () => {
    made += 1;
    return new Uint8Array(Buffer.from(text));
  };
  return { make, made: () => made };
}

describe('PageCache', () => {
  it('keeps a body while nothing is written', () => {
    withStore((db) => {
      const cache = new PageCache(db);
      const { make, made } = counter();
      expect(Buffer.from(cache.body('k', make('a'))).toString()).toBe('a');
      expect(Buffer.from(cache.body('k', make('b'))).toString()).toBe('a');
      expect(made()).toBe(1);
      writeRead(db);
      expect(Buffer.from(cache.body('k', make('c'))).toString()).toBe('c');
    });
  });

  it('keeps its bodies over a write to a table no stored read reads (#27: a Skill, a Brand), and drops them at a write to one that does', () => {
    withStore((db) => {
      const cache = new PageCache(db);
      const { make, made } = counter();
      cache.body('k', make('a'));
      db.prepare('INSERT INTO t VALUES (1)').run();
      db.prepare('UPDATE t SET x = 2').run();
      db.prepare('DELETE FROM t').run();
      expect(Buffer.from(cache.body('k', make('b'))).toString()).toBe('a');
      expect(made()).toBe(1);
      // Each read table, each kind of write.
      const rows = [
        () => writeRead(db),
        () => db.prepare(`UPDATE organizations SET name = 'renamed' WHERE id = ?`).run(`org_w${orgs}`),
        () => db.prepare(`DELETE FROM organizations WHERE id = ?`).run(`org_w${orgs}`),
        () =>
          db
            .prepare(
              `INSERT INTO observe_rows (kind, org_id, advertiser_id, provider, id, status, campaign_id, source, row, json, created_at) VALUES ('campaign', 'org_x', 'acc_x', 'provider_a', ?, 'ACTIVE', NULL, '0:USD', '{}', '{}', 0)`,
            )
            .run(`c${orgs}`),
        () => db.prepare(`UPDATE observe_rows SET deleted_at = 1`).run(),
        () => db.prepare(`DELETE FROM observe_rows`).run(),
      ];
      for (const [i, write] of rows.entries()) {
        write();
        expect(Buffer.from(cache.body('k', make(`after ${i}`))).toString()).toBe(`after ${i}`);
      }
      expect(made()).toBe(1 + rows.length);
    });
  });

  it('sees a commit by another connection to the same file (data_version)', () => {
    const file = join(dir, 'other.db');
    withStore((db) => {
      withStore((other) => {
        const cache = new PageCache(db);
        const { make, made } = counter();
        cache.body('k', make('a'));
        cache.body('k', make('a'));
        expect(made()).toBe(1);
        other.prepare('INSERT INTO t VALUES (1)').run();
        cache.body('k', make('b'));
        expect(made()).toBe(2);
      }, file);
    }, file);
  });

  it('keeps nothing made inside a transaction (a rollback undoes rows, not the change count)', () => {
    withStore((db) => {
      const cache = new PageCache(db);
      const { make, made } = counter();
      expect(() =>
        db.transaction(() => {
          writeRead(db);
          cache.body('k', make('inside'));
          throw new Error('roll back');
        })(),
      ).toThrow('roll back');
      expect(Buffer.from(cache.body('k', make('after'))).toString()).toBe('after');
      expect(made()).toBe(2);
    });
  });

  it('keeps nothing made while the store changed under it', () => {
    withStore((db) => {
      const cache = new PageCache(db);
      const { make, made } = counter();
      cache.body('k', () => {
        writeRead(db);
        return make('racing')();
      });
      cache.body('k', make('later'));
      expect(made()).toBe(2);
    });
  });

  it('holds at most its byte budget, dropping the least recently used page first', () => {
    withStore((db) => {
      const cache = new PageCache(db, { maxBytes: 3 * 10_000 });
      const page = (fill: number) => () => new Uint8Array(10_000).fill(fill);
      cache.body('a', page(1));
      cache.body('b', page(2));
      cache.body('c', page(3));
      cache.body('a', page(9)); // used again: b is now the oldest
      cache.body('d', page(4));
      expect(cache.size).toEqual({ entries: 3, bytes: 30_000, owners: 0 });
      expect(cache.body('a', page(9))[0]).toBe(1);
      expect(cache.body('b', page(5))[0]).toBe(5);
      // A page larger than the whole budget is answered, never kept.
      cache.body('huge', () => new Uint8Array(40_000));
      expect(cache.size.entries).toBe(3);
    });
  });
  it('answers a read by a kept key resolution only while the store stands still and the key has not expired', () => {
    withStore((db) => {
      const cache = new PageCache(db);
      const { make } = counter();
      const pageKey = (orgId: string) => `campaigns ${orgId} ?limit=1`;
      const x = 'observe:read Bearer acr_x';
      cache.body(pageKey('org_a'), make('page of org_a'));
      // No resolution kept for the credential: the key is looked up (here it does not resolve).
      expect(() => cache.keptRead(x, 1000, pageKey, refuse)).toThrow('does not resolve');
      expect(Buffer.from(cache.keptRead(x, 1000, pageKey, () => owner('org_a', 2000))!).toString()).toBe('page of org_a');
      // Kept: not looked up again.
      expect(Buffer.from(cache.keptRead(x, 1000, pageKey, refuse)!).toString()).toBe('page of org_a');
      // Another permission or another key is another credential: looked up.
      expect(() => cache.keptRead('mutation:read Bearer acr_x', 1000, pageKey, refuse)).toThrow('does not resolve');
      expect(() => cache.keptRead('observe:read Bearer acr_y', 1000, pageKey, refuse)).toThrow('does not resolve');
      // Expiry is on the clock: at expiresAt the key no longer resolves.
      expect(cache.keptRead(x, 2000, pageKey, refuse)).toBeUndefined();
      // A write (a revocation, a lapsed subscription, anything) drops every resolution with the pages.
      writeRead(db);
      expect(() => cache.keptRead(x, 1000, pageKey, refuse)).toThrow('does not resolve');
      expect(cache.size.owners).toBe(0);
    });
  });

  it('keeps no key resolution made inside a transaction', () => {
    withStore((db) => {
      const cache = new PageCache(db);
      cache.body('p org_a', () => new Uint8Array(1));
      const page = (org: string) => `p ${org}`;
      const orgA = () => owner('org_a', null);
      expect(db.transaction(() => cache.keptRead('c', 0, page, orgA))()).toHaveLength(1);
      // Not kept: the next read looks the key up again.
      expect(() => cache.keptRead('c', 0, page, refuse)).toThrow('does not resolve');
      expect(cache.keptRead('c', Number.MAX_SAFE_INTEGER, page, orgA)).toHaveLength(1);
      expect(cache.keptRead('c', Number.MAX_SAFE_INTEGER, page, refuse)).toHaveLength(1);
    });
  });
  it("keeps a key check's resolution for every request while the store stands still (keyOwner)", () => {
    withStore((db) => {
      const cache = new PageCache(db);
      const x = 'skill:write Bearer acr_x';
      expect(() => cache.keyOwner(x, 1000, refuse)).toThrow('does not resolve');
      const resolved = owner('org_a', 2000);
      expect(cache.keyOwner(x, 1000, () => resolved)).toBe(resolved);
      // Kept: not looked up again, nothing of a page needed.
      expect(cache.keyOwner(x, 1999, refuse)).toBe(resolved);
      // Expired by the clock: looked up again (and refused, as authenticate refuses it).
      expect(() => cache.keyOwner(x, 2000, refuse)).toThrow('does not resolve');
      // A write that is not to a table a key check reads leaves it kept.
      db.prepare('INSERT INTO t (x) VALUES (1)').run();
      expect(cache.keyOwner(x, 1000, refuse)).toBe(resolved);
      // A write to one (a revocation, a member leaving, anything) drops it.
      writeRead(db);
      expect(() => cache.keyOwner(x, 1000, refuse)).toThrow('does not resolve');
    });
  });

  it('counts writes for every cache of one connection, and a write rolled back still drops what was kept', () => {
    withStore((db) => {
      const first = new PageCache(db);
      const second = new PageCache(db, { shared: false });
      const { make, made } = counter();
      first.body('k', make('a'));
      second.body('k', make('a'));
      writeRead(db);
      first.body('k', make('b'));
      second.body('k', make('b'));
      expect(made()).toBe(4);
      expect(() =>
        db.transaction(() => {
          writeRead(db);
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      // Nothing was written in the end, but the pages are made again: never kept past a change.
      first.body('k', make('c'));
      expect(made()).toBe(5);
    });
  });
});
