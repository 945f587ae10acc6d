// The operation modules (src/contract/operations/<api>.ts) are the one place an
// operation is declared: the sandbox's routes and documents, and the plain CLI
// commands, are built from them. These checks hold the derived things to the
// modules: a route that answered a status or an error its module does not
// declare, or a plain command missing from the tree, fails here.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/contract/errors.js';
import { OPERATION_TABLE, OPERATIONS } from '../../../src/contract/operations.js';
import { OPERATION_ENTRIES } from '../../../src/contract/operations/all.js';
import { getRegistry } from '../../../src/commands/index.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

type DocOperation = { operationId: string; responses: Record<string, { description: string }> };

describe('operation modules', () => {
  it("src/contract/generated/operation-table.ts is current: the modules' entries, in order, less their schemas (regenerate: npm run gen)", () => {
    const declared = Object.entries(OPERATION_ENTRIES).map(([id, entry]) => [id, Object.fromEntries(Object.entries(entry).filter(([k]) => k !== 'schemas'))]);
    expect(Object.entries(OPERATION_TABLE)).toEqual(declared);
  });

  it('declare 2xx statuses and known error codes for every operation', () => {
    for (const op of OPERATIONS) {
      expect(Object.keys(op.responses).length, op.id).toBeGreaterThan(0);
      for (const status of Object.keys(op.responses)) expect(Number(status), `${op.id} ${status}`).toBeGreaterThanOrEqual(200);
      for (const status of Object.keys(op.responses)) expect(Number(status), `${op.id} ${status}`).toBeLessThan(300);
      for (const code of op.errors) expect(Object.hasOwn(ERROR_CODES, code), `${op.id} ${code}`).toBe(true);
    }
  });

  it('are what the sandbox publishes: each 2xx description and each added error code, per operation', async () => {
    const sb = await startTestSandbox();
    try {
      const doc = (await sb.req('GET', '/openapi.json')).body as { paths: Record<string, Record<string, DocOperation>> };
      const published = new Map(Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => [o.operationId, o] as const)));
      expect([...published.keys()].sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
      for (const op of OPERATIONS) {
        const answers = published.get(op.id)!.responses;
        const successes = Object.fromEntries(
          Object.entries(answers)
            .filter(([s]) => Number(s) < 300)
            .map(([s, r]) => [s, r.description]),
        );
        expect(successes, op.id).toEqual(Object.fromEntries(Object.entries(op.responses).map(([s, d]) => [s, d])));
        const codes = Object.entries(answers)
          .filter(([s]) => Number(s) >= 400)
          .flatMap(([, r]) => [...r.description.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
        for (const code of op.errors) expect(codes, `${op.id} ${code}`).toContain(code);
      }
    } finally {
      await sb.close();
    }
  });

  it('give every operation with a `cli` entry its command, at that path, for that operation', () => {
    const registry = getRegistry();
    for (const op of OPERATIONS) {
      if (!op.cli) continue;
      const { command } = registry.find(op.cli.path);
      expect(command?.path, op.id).toEqual(op.cli.path);
      expect(command?.operationId, op.id).toBe(op.id);
      expect(command?.description, op.id).toBe(op.cli.description);
      expect(command?.examples, op.id).toEqual(op.cli.examples);
    }
  });

  it('leave no operation without a command: its own, or one that names it (alternate or flow)', () => {
    const named = new Set(
      getRegistry().commands.flatMap((c) => [c.operationId, ...(c.alternates ?? []).map((a) => a.operationId), ...(c.flowOperations ?? [])]),
    );
    expect(OPERATIONS.filter((op) => !named.has(op.id)).map((op) => op.id)).toEqual([]);
  });
});
