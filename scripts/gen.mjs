#!/usr/bin/env node
// `npm run gen`: regenerate the committed files derived from the contract and
// the command registry. Tests fail when any is stale.
//   src/contract/generated/operation-table.ts     (the operation modules' entries without their zod schemas:
//                                                  the plain table the CLI's fast paths read)
//   src/contract/generated/operation-inputs.json  (what each operation accepts; the CLI reads it)
//   src/contract/generated/resource-fields.json   (each noun's --fields paths, from its rows' response schemas)
//   src/contract/generated/request-validators.js  (ajv's standalone validators of each request body and
//                                                  headers; the CLI loads them lazily to check before sending)
//   src/contract/generated/parameter-validators.js (the same engine's validators of each path and query
//                                                  parameter, as text; the stored reads' bundle holds them too)
//   src/contract/generated/response-validators.js (the same engine's validators of each success answer,
//                                                  opened to unknown fields; loaded when a flow acts on one)
//   docs/cli.md                                    (the command reference)
//   completions/adops.{bash,zsh,fish}
//   man/adops.1                                    (the man page, package.json "man")
//   docs/exit-codes.md                             (its tables, between their markers)
//   docs/mcp.md                                    (the table of `adops mcp` tools, between its markers)
// Each step reads the sources (src/), bundled by esbuild without type-checking, not tsc's dist/, and
// reads what the step before it wrote. A new operation's id enters the type OperationId only with the
// table written here, so its handler (src/sandbox/routes/<area>.ts) type-checks only after this has run:
// gen neither type-checks nor builds (test/e2e/gen-before-types.test.ts). Write the operation and its
// handler together, `npm run gen`, then `npm run build`.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv[2];
// Two levels under the root, as dist/cli is: src/cli/version.ts finds ../../package.json from its own URL.
const scratch = `${root}dist/gen`;

/** Import what `exports` (TypeScript, paths relative to the root) names, from src/ as it is now. */
async function fromSource(name, exports) {
  mkdirSync(scratch, { recursive: true });
  const outfile = `${scratch}/${name}-${process.pid}.mjs`;
  try {
    await build({
      stdin: { contents: exports, resolveDir: root, sourcefile: `${name}.ts`, loader: 'ts' },
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

// 1. The plain table, from the operation modules.
const { OPERATION_ENTRIES } = await fromSource('operation-entries', "export { OPERATION_ENTRIES } from './src/contract/operations/all.ts';");
writeFileSync(`${root}src/contract/generated/operation-table.ts`, operationTableSource(OPERATION_ENTRIES));

// 2. What the CLI derives from the schemas (it reads the table just written).
const contract = await fromSource(
  'contract',
  [
    "export { operationInputs } from './src/contract/operation-inputs.ts';",
    "export { resourceFields } from './src/contract/resource-fields.ts';",
    "export { requestValidatorsSource, parameterValidatorsSource, parameterValidatorsDeclaration } from './src/contract/request-schemas.ts';",
    "export { responseValidatorsSource } from './src/contract/response-schemas.ts';",
    "export { validatorsDeclaration } from './src/contract/validator-build.ts';",
  ].join('\n'),
);
writeFileSync(`${root}src/contract/generated/operation-inputs.json`, JSON.stringify(contract.operationInputs(), null, 1) + '\n');
writeFileSync(`${root}src/contract/generated/resource-fields.json`, JSON.stringify(contract.resourceFields(), null, 1) + '\n');
for (const [name, source] of [
  ['request-validators', contract.requestValidatorsSource()],
  ['response-validators', contract.responseValidatorsSource()],
]) {
  writeFileSync(`${root}src/contract/generated/${name}.js`, source);
  writeFileSync(`${root}src/contract/generated/${name}.d.ts`, contract.validatorsDeclaration(name));
}
writeFileSync(`${root}src/contract/generated/parameter-validators.js`, contract.parameterValidatorsSource());
writeFileSync(`${root}src/contract/generated/parameter-validators.d.ts`, contract.parameterValidatorsDeclaration());
if (only === 'inputs') process.exit(0);

// 3. The command reference and completions (the registry reads the JSON just written).
const cli = await fromSource(
  'cli',
  [
    "export { getRegistry } from './src/commands/index.ts';",
    "export { commandReference, manPage } from './src/cli/docs.ts';",
    "export { packageVersion } from './src/cli/version.ts';",
    "export { completionScript, SHELLS } from './src/cli/completion.ts';",
    "export { exitCodesDoc } from './src/cli/exit-docs.ts';",
  ].join('\n'),
);
const registry = cli.getRegistry();
writeFileSync(`${root}docs/cli.md`, cli.commandReference(registry));
for (const shell of cli.SHELLS) writeFileSync(`${root}completions/adops.${shell}`, cli.completionScript(registry, shell));
mkdirSync(`${root}man`, { recursive: true });
writeFileSync(`${root}man/adops.1`, cli.manPage(registry, cli.packageVersion()));
writeFileSync(`${root}docs/exit-codes.md`, cli.exitCodesDoc(readFileSync(`${root}docs/exit-codes.md`, 'utf8')));

// 4. The tools of `adops mcp` (the operation tools from the registry, then the flows), as tools/list gives them.
const mcp = await fromSource(
  'mcp',
  [
    "export { getRegistry } from './src/commands/index.ts';",
    "export { operationTools } from './src/mcp/operation-tools.ts';",
    "export { flowTools } from './src/mcp/flow-tools.ts';",
    "export { mcpToolsDoc } from './src/mcp/tool-table.ts';",
  ].join('\n'),
);
// The tools only name their change directory here (nothing is written until a tool is called).
const mcpTools = [...mcp.operationTools(mcp.getRegistry(), 'mcp-changes'), ...mcp.flowTools({ changeDir: 'mcp-changes' })];
writeFileSync(`${root}docs/mcp.md`, mcp.mcpToolsDoc(readFileSync(`${root}docs/mcp.md`, 'utf8'), mcpTools));

/** src/contract/generated/operation-table.ts: each entry as its module declares it, less `schemas`. */
export function operationTableSource(entries) {
  const plain = Object.fromEntries(Object.entries(entries).map(([id, { schemas: _schemas, ...entry }]) => [id, entry]));
  return [
    '// Generated by `npm run gen` (scripts/gen.mjs) from the operation modules, src/contract/operations/<api>.ts:',
    '// do not edit. Their entries without the zod schemas, so the CLI can read the table without loading zod.',
    "import type { OperationSpec } from '../operations/spec.js';",
    '',
    `export const OPERATION_TABLE = ${literal(plain, '')} as const satisfies Record<string, OperationSpec>;`,
    '',
  ].join('\n');
}

/**
 * A TypeScript literal: numeric keys stay numbers (a status is `200`, not `'200'`, in the table's type). An object
 * or array that fits on its line is written on it, as prettier writes the modules (esbuild keeps a literal's line
 * breaks, so an all-expanded table would make the stored reads' bundle larger than the modules did).
 */
function literal(value, indent) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  const key = (k) => (/^[A-Za-z_$][\w$]*$|^(0|[1-9]\d*)$/.test(k) ? k : JSON.stringify(k));
  const items = Array.isArray(value)
    ? value.map((v) => literal(v, inner))
    : Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${key(k)}: ${literal(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  const flat = items.length === 0 ? open.trim() + close.trim() : `${open}${items.join(', ')}${close}`;
  if (!flat.includes('\n') && indent.length + flat.length <= 140) return flat;
  return `${open.trim()}\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}${close.trim()}`;
}
