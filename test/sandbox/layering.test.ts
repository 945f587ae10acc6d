// The sandbox's inside stays simple: models, providers, ingestion and the store
// know nothing of HTTP (no Hono, no request context) and never pick a status:
// they throw domain errors by code (src/sandbox/models/errors.ts), and the
// status comes from the one error table.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/errors.js';
import { domainError } from '../../src/sandbox/models/errors.js';

const SRC = fileURLToPath(new URL('../../src/sandbox/', import.meta.url));
const INSIDE = ['models', 'providers', 'ingest', 'store'];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

/** What must not appear inside, with why. */
const RULES: ReadonlyArray<[string, RegExp]> = [
  ['imports hono', /from 'hono(\/[^']*)?'|from '@hono\//],
  ['reads the request context', /http\/context\.js'/],
  ['builds an HTTP failure itself (use domainError)', /\bfail\(/],
  ['names a status with its error', /domainError\([^;]*,\s*[1-5]\d\d\s*\)/],
];

describe('layering of src/sandbox', () => {
  it('each rule catches what it names (it can fail)', () => {
    const caught = (text: string) => RULES.filter(([, re]) => re.test(text)).map(([why]) => why);
    expect(caught("import type { Context } from 'hono';")).toEqual(['imports hono']);
    expect(caught("import type { AppEnv } from '../http/context.js';")).toEqual(['reads the request context']);
    expect(caught("throw fail('not_found', 'x');")).toEqual(['builds an HTTP failure itself (use domainError)']);
    expect(caught("throw domainError('plan_frozen', 'x', {}, 409);")).toEqual(['names a status with its error']);
  });

  it('domainError takes its status from the error table', () => {
    expect(domainError('plan_frozen', 'x').status).toBe(ERROR_CODES.plan_frozen.status);
    expect(domainError('not_found', 'x').status).toBe(404);
  });

  it.each(INSIDE.flatMap((d) => files(join(SRC, d))).map((p) => [relative(SRC, p), p]))('%s', (name, path) => {
    const text = readFileSync(path, 'utf8');
    const broken = RULES.filter(([, re]) => re.test(text)).map(([why]) => why);
    // models/errors.ts is where a code becomes an ApiError: it alone calls fail.
    expect(name === 'models/errors.ts' ? broken.filter((b) => !b.startsWith('builds')) : broken).toEqual([]);
  });
});
