#!/usr/bin/env node
// Regenerates docs/fixtures.schema.json from the built zod schema.
// Usage: npm run build && node scripts/fixtures-schema.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fixturesJsonSchemaText } from '../dist/sandbox/fixtures/json-schema.js';

const target = fileURLToPath(new URL('../docs/fixtures.schema.json', import.meta.url));
writeFileSync(target, fixturesJsonSchemaText());
console.log(`wrote ${target}`);
