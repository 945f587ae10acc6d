// The one validator engine, build side: a zod schema of the contract as the
// JSON Schema the sandbox publishes, and ajv's standalone code of a set of
// them. `npm run gen` writes what it builds: ./generated/request-validators.js
// (the bodies and headers the CLI sends), ./generated/parameter-validators.js
// (its path and query parameters) and ./generated/response-validators.js (what
// a flow acts on), each loaded lazily at run time by ./request-check.ts and
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

export interface StandaloneOptions {
  inlineRefs?: boolean;
  /** ajv's coerceTypes: a value of another type is converted before it is checked (text on the wire, ./request-schemas.ts). */
  coerceTypes?: boolean;
  /** ajv's English messages in the errors (./validation-words.ts words them from the keyword; false: smaller code). */
  messages?: boolean;
  /** Code placed after the validators (facts that name them). */
  epilogue?: string;
}

/** What ajv's standalone code calls to count a string's length (its runtime module, which the code may not import). */
const UCS2LENGTH = 'require("ajv/dist/runtime/ucs2length").default';

/** A string's length in code points, a lone surrogate counting one: as zod and ajv's runtime ucs2length count it. Copied into the code. */
function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

/**
 * ajv's standalone validators of `schemas` (each exported under its key), minified, with the contract's
 * formats (date, uri) from ./request-formats.ts copied in; `prelude` is code placed before them (exported
 * facts). Plain JavaScript that imports nothing: Node loads it as it is (vitest too, untransformed:
 * vitest.config.ts), and a .d.ts beside it (validatorsDeclaration) types it for the TypeScript that loads it.
 */
export function standaloneSource(schemas: Record<string, Node>, header: string, prelude = '', opts: StandaloneOptions = {}): string {
  const ajv = new Ajv({
    inlineRefs: opts.inlineRefs ?? true,
    allErrors: true,
    strict: false,
    discriminator: true,
    coerceTypes: opts.coerceTypes ?? false,
    messages: opts.messages ?? true,
    // zod counts a string's length in code points (a surrogate pair is one), as ajv's unicode mode does.
    unicode: true,
    logger: false,
    code: { source: true, esm: true, lines: false, formats: _`requestFormats` },
    formats: { date: requestFormats.date, uri: requestFormats.uri },
  });
  for (const [key, schema] of Object.entries(schemas)) ajv.addSchema(schema, key);
  const code = standaloneCode(ajv, Object.fromEntries(Object.keys(schemas).map((k) => [k, k])))
    .replace(/^"use strict";/, '')
    .replaceAll(UCS2LENGTH, 'codePointLength');
  if (code.includes('require(')) throw new Error('validators: the standalone code still calls require()');
  const formats = `const requestFormats = { date: ${String(requestFormats.date)}, uri: ${String(requestFormats.uri)} };\n${String(codePointLength)}\n`;
  // Minified: a command that checks parses it once per run (about half the size unminified).
  const small = transformSync(`${formats}${prelude}${code}${opts.epilogue ?? ''}`, { minify: true, format: 'esm', target: 'node20' }).code;
  return `${header}${small}`;
}

/** The .d.ts beside a generated validators module: its exports are read by name at run time (Validators). */
export function validatorsDeclaration(what: string): string {
  return `// Written by \`npm run gen\` beside ${what}.js (src/contract/validator-build.ts). Do not edit.\n// Its exports are read by name (src/contract/validation-words.ts: Validators).\nexport {};\n`;
}
