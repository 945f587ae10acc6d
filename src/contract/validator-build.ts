// The one validator engine, build side: a zod schema of the contract as the
// JSON Schema the sandbox publishes, and ajv's standalone code of a set of
// them. `npm run gen` writes what it builds: ./generated/request-validators.ts
// (what the CLI sends) and ./generated/response-validators.ts (what a flow
// acts on), each loaded lazily at run time by ./request-check.ts and
// ./response-check.ts, which read the verdicts in one set of words
// (./validation-words.ts). Dev-time only (zod, ajv, esbuild): nothing at run
// time imports this file, only the code it writes.
import { Ajv, _ } from 'ajv';
import { createRequire } from 'node:module';
import { transformSync } from 'esbuild';
import { z } from 'zod';
import * as requestFormats from './request-formats.js';

// A CommonJS module whose module.exports is the function (TypeScript's NodeNext reading of its default differs).
const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone') as (ajv: Ajv, refs: Record<string, string>) => string;

export type Node = Record<string, unknown>;
export const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Words for people (descriptions, examples) do not check anything; dropped so the validators stay small. */
const PROSE = new Set(['description', 'examples', 'example', 'default', 'title', '$schema', 'id']);

/** `node` with `f` applied to every schema inside it, bottom up; the names under `properties` are kept as they are. */
export function mapSchema(node: unknown, f: (n: Node) => Node): unknown {
  if (Array.isArray(node)) return node.map((n) => mapSchema(n, f));
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = (k === 'properties' || k === '$defs') && isNode(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, mapSchema(s, f)])) : mapSchema(v, f);
  }
  return f(out);
}

/** A whole schema mapped by `f` (mapSchema), still a schema object. */
export function mapNode(node: Node, f: (n: Node) => Node): Node {
  const out = mapSchema(node, f);
  if (!isNode(out)) throw new Error('a contract schema is a JSON object');
  return out;
}

/** The published JSON Schema of a zod schema (`io`: as sent, or as answered), without its prose. */
export function publishedSchema(schema: z.ZodType, io: 'input' | 'output'): Node {
  const json: unknown = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  if (!isNode(json)) throw new Error('a contract schema is a JSON object');
  return mapNode(json, (n) => Object.fromEntries(Object.entries(n).filter(([k]) => !PROSE.has(k))));
}

/**
 * ajv's standalone validators of `schemas` (each exported under its key), minified, with the contract's
 * formats (date, uri) from ./request-formats.ts copied in; `prelude` is code placed before them (exported
 * facts). Plain JavaScript that imports nothing: Node loads it as it is (vitest too, untransformed:
 * vitest.config.ts), and a .d.ts beside it (validatorsDeclaration) types it for the TypeScript that loads it.
 */
export function standaloneSource(schemas: Record<string, Node>, header: string, prelude = '', opts: { inlineRefs?: boolean } = {}): string {
  const ajv = new Ajv({
    inlineRefs: opts.inlineRefs ?? true,
    allErrors: true,
    strict: false,
    discriminator: true,
    // zod counts a string's length in UTF-16 units (String.length), so the checks do too.
    unicode: false,
    logger: false,
    code: { source: true, esm: true, lines: false, formats: _`requestFormats` },
    formats: { date: requestFormats.date, uri: requestFormats.uri },
  });
  for (const [key, schema] of Object.entries(schemas)) ajv.addSchema(schema, key);
  const code = standaloneCode(ajv, Object.fromEntries(Object.keys(schemas).map((k) => [k, k]))).replace(/^"use strict";/, '');
  if (code.includes('require(')) throw new Error('validators: the standalone code still calls require()');
  const formats = `const requestFormats = { date: ${String(requestFormats.date)}, uri: ${String(requestFormats.uri)} };\n`;
  // Minified: a command that checks parses it once per run (about half the size unminified).
  const small = transformSync(`${formats}${prelude}${code}`, { minify: true, format: 'esm', target: 'node20' }).code;
  return `${header}${small}`;
}

/** The .d.ts beside a generated validators module: its exports are read by name at run time (Validators). */
export function validatorsDeclaration(what: string): string {
  return `// Written by \`npm run gen\` beside ${what}.js (src/contract/validator-build.ts). Do not edit.\n// Its exports are read by name (src/contract/validation-words.ts: Validators).\nexport {};\n`;
}
