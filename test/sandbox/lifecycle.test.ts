// The one transition table (src/sandbox/models/lifecycle.ts): every machine's
// edges lead to states it declares, final states have no way out, and the
// states the stores may hold are exactly the table's (a state added to a
// CHECK constraint but not to the table, or the reverse, fails here).
import { describe, expect, it } from 'vitest';
import { LIFECYCLES, canMove } from '../../src/sandbox/models/lifecycle.js';
import type { Machine } from '../../src/sandbox/models/lifecycle.js';
import { openDatabase } from '../../src/sandbox/store/db.js';

const machines = Object.entries(LIFECYCLES) as Array<[string, Machine]>;

/** The values a table's CHECK (column IN (...)) allows, read from the live schema. */
function checkedStates(table: string, column: string): string[] {
  const db = openDatabase(':memory:');
  try {
    const sql = (db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(table) as { sql: string }).sql;
    const list = new RegExp(`${column}\\s+TEXT\\s+NOT NULL\\s+CHECK\\s*\\(\\s*${column}\\s+IN\\s*\\(([^)]*)\\)`).exec(sql)?.[1];
    return (list ?? '')
      .split(',')
      .map((s) => s.trim().replace(/^'|'$/g, ''))
      .filter(Boolean);
  } finally {
    db.close();
  }
}

describe('lifecycle table', () => {
  it.each(machines)('%s: every edge leads to a declared state; final states have no way out', (_name, machine) => {
    for (const [from, step] of Object.entries(machine)) {
      if (step === null) continue;
      expect(step.to.length).toBeGreaterThan(0);
      for (const to of step.to) expect(Object.keys(machine), `${from} → ${to}`).toContain(to);
    }
    expect(Object.values(machine).some((s) => s === null)).toBe(true);
  });

  it("the stored states are the table's (deleted rows are removed, not stored)", () => {
    const stored = (m: Machine) =>
      Object.keys(m)
        .filter((s) => s !== 'deleted')
        .sort();
    expect(checkedStates('mutations', 'state').sort()).toEqual(stored(LIFECYCLES.mutation));
    expect(checkedStates('uploads', 'state').sort()).toEqual(stored(LIFECYCLES.upload));
    expect(checkedStates('assets', 'state').sort()).toEqual(stored(LIFECYCLES.asset));
    expect(checkedStates('context_documents', 'state').sort()).toEqual(stored(LIFECYCLES.document));
  });

  it('canMove follows the edges only', () => {
    expect(canMove(LIFECYCLES.mutation, 'pending', 'running')).toBe(true);
    expect(canMove(LIFECYCLES.mutation, 'pending', 'succeeded')).toBe(false);
    expect(canMove(LIFECYCLES.mutation, 'succeeded', 'failed')).toBe(false);
    expect(canMove(LIFECYCLES.asset, 'ready', 'reserved')).toBe(false);
  });

  it('only the mutation machine moves on time; the rest move on requests', () => {
    const timed = machines.flatMap(([name, m]) =>
      Object.entries(m)
        .filter(([, s]) => s !== null && 'due' in s)
        .map(([from]) => `${name}.${from}`),
    );
    expect(timed).toEqual(['mutation.pending', 'mutation.running']);
  });
});
