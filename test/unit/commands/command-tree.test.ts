// The command tree against the contract (stripe-mock style): every operation
// of the spec's list has a named command, every derived flag names a field
// its operation accepts, and the JSON the CLI reads is what the zod schemas say.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getRegistry } from '../../../src/commands/index.js';
import { inputsOf, type OperationCommandData } from '../../../src/commands/_shared/operation-data.js';
import { operationInputs } from '../../../src/contract/operation-inputs.js';
import { OPERATION_SCHEMAS } from '../../../src/contract/operation-schemas.js';
import { isOperationId, OPERATIONS, matchOperation, pathParams, type OperationId } from '../../../src/contract/operations.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

const read = (p: string) => readFileSync(new URL(`../../../${p}`, import.meta.url), 'utf8');
const registry = getRegistry();

/** The spec's operation list, as written there: "GET /observe/insights", … —
 * carried in the repository (a clone has no ../shared beside it). */
const SPEC_OPERATIONS = (JSON.parse(read('test/fixtures/spec-operations.json')) as { operations: string[] }).operations;
const operationsIn = (spec: string) => [...spec.matchAll(/^\| (GET|POST|PATCH|DELETE) \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
const SPEC_FILE = new URL('../../../../shared/spec/service-interface.md', import.meta.url);

describe('the command tree covers the contract', () => {
  // Only where the shared spec sits beside the checkout (the developers' layout); a user's clone skips it.
  it.skipIf(!existsSync(SPEC_FILE))('test/fixtures/spec-operations.json is the operation list of ../shared/spec/service-interface.md', () => {
    expect(SPEC_OPERATIONS).toEqual(operationsIn(readFileSync(SPEC_FILE, 'utf8')));
  });

  it('the spec lists 64 operations and the operation table holds exactly those', () => {
    expect(SPEC_OPERATIONS).toHaveLength(64);
    expect(OPERATIONS.map((o) => `${o.method} ${o.path}`).sort()).toEqual([...SPEC_OPERATIONS].sort());
  });

  it('every operation has a named command (no allow-list)', () => {
    const named = new Set<string>();
    for (const c of registry.commands) {
      if (c.operationId) named.add(c.operationId);
      for (const a of c.alternates ?? []) named.add(a.operationId);
    }
    const missing = OPERATIONS.filter((o) => !named.has(o.id)).map((o) => `${o.id} (${o.method} ${o.path})`);
    expect(missing).toEqual([]);
  });

  it('`adops commands --json` names each leaf with its operationId and "METHOD /path" as the spec writes it', () => {
    const tree = registry.tree() as {
      commands: Array<{ path: string[]; operationId?: string; operation?: string; alternates?: Array<{ operation: string }> }>;
    };
    const listed = tree.commands.flatMap((c) => [c.operation, ...(c.alternates ?? []).map((a) => a.operation)]).filter(Boolean);
    for (const op of SPEC_OPERATIONS) expect(listed, op).toContain(op);
    for (const c of tree.commands.filter((c) => c.operationId)) expect(c.operation, c.path.join(' ')).toMatch(/^(GET|POST|PATCH|DELETE) \//);
  });

  it('every flag that sends a field names a field of its operation (or of its alternate)', () => {
    const bad: string[] = [];
    for (const c of registry.commands) {
      const ops = [c.operationId, ...(c.alternates ?? []).map((a) => a.operationId)].filter((x): x is OperationId => !!x);
      for (const o of c.options ?? []) {
        if (!o.field) continue;
        const known = ops.some((id) => {
          const io = inputsOf(id);
          return (o.in === 'query' ? io.query : (io.body?.fields ?? [])).some((f) => f.name === o.field);
        });
        if (!known) bad.push(`${c.path.join(' ')} ${o.flags} -> ${o.field}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('every path parameter is one positional argument, in order', () => {
    for (const c of registry.commands) {
      const data = c.data as OperationCommandData | undefined;
      if (!c.operationId || !data?.args) continue;
      const op = OPERATIONS.find((o) => o.id === c.operationId)!;
      expect(
        data.args.map((a) => a.param),
        c.path.join(' '),
      ).toEqual(pathParams(op.path));
    }
  });

  it('the operation a method and path name is found, literal segments first', () => {
    expect(matchOperation('GET', '/observe/insights')?.id).toBe('listInsights');
    expect(matchOperation('GET', '/observe/acc_1/campaigns')?.id).toBe('listLiveCampaigns');
    expect(matchOperation('POST', '/assets/uploads')?.id).toBe('reserveAssetUpload');
    expect(matchOperation('POST', '/assets/ast_1/finalize')?.id).toBe('finalizeAsset');
    expect(matchOperation('GET', '/nope')).toBeUndefined();
  });
});

describe('one source for what an operation accepts', () => {
  it('src/contract/generated/operation-inputs.json is current (regenerate: npm run gen)', () => {
    expect(JSON.parse(read('src/contract/generated/operation-inputs.json'))).toEqual(JSON.parse(JSON.stringify(operationInputs())));
  });

  it('the published OpenAPI documents take the same parameters and body fields as the contract map', async () => {
    const sb = await startTestSandbox();
    try {
      const doc = (await (await fetch(`${sb.url}/openapi.json`)).json()) as {
        paths: Record<
          string,
          Record<
            string,
            { operationId: string; parameters?: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema: unknown }> } }
          >
        >;
        components?: { schemas?: Record<string, unknown> };
      };
      const seen = new Set<string>();
      for (const methods of Object.values(doc.paths)) {
        for (const op of Object.values(methods)) {
          if (!isOperationId(op.operationId) || !Object.hasOwn(OPERATION_SCHEMAS, op.operationId)) continue;
          seen.add(op.operationId);
          const io = inputsOf(op.operationId);
          const names = (where: string) =>
            (op.parameters ?? [])
              .filter((p) => p.in === where)
              .map((p) => p.name)
              .sort();
          expect(names('path'), op.operationId).toEqual(io.params.map((f) => f.name).sort());
          expect(names('query'), op.operationId).toEqual(io.query.map((f) => f.name).sort());
          expect(op.requestBody !== undefined, op.operationId).toBe(io.body !== undefined);
        }
      }
      expect([...seen].sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
    } finally {
      await sb.close();
    }
  });
});

describe('output flags reach every command', () => {
  it('no command builds its writer options by hand (prepareOutput applies --fields, --query and the abort signal)', async () => {
    const { readdirSync, readFileSync: read } = await import('node:fs');
    const { join } = await import('node:path');
    const root = new URL('../../../src/commands', import.meta.url).pathname;
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
    const bad = walk(root).filter((f) => /checkFields\(|new ListWriter\(\{|writeObject\([^)]*\{ format:/.test(read(f, 'utf8')));
    expect(bad).toEqual([]);
  });
});
