// Every operation module's entries, in the order the sandbox registers them (API by API).
// This file loads zod (the modules' schemas): ../operation-schemas.ts reads it, and
// `npm run gen` bundles it to write the plain table (../generated/operation-table.ts).
// A new operation goes in its API's module, not here; a new API adds its module below.
import { ASSETS_OPERATIONS } from './assets.js';
import { CONTEXT_OPERATIONS } from './context.js';
import type { OperationEntry } from './entry.js';
import { MUTATIONS_OPERATIONS } from './mutations.js';
import { OBSERVE_OPERATIONS } from './observe.js';

export const OPERATION_ENTRIES = {
  ...OBSERVE_OPERATIONS,
  ...MUTATIONS_OPERATIONS,
  ...CONTEXT_OPERATIONS,
  ...ASSETS_OPERATIONS,
} as const satisfies Record<string, OperationEntry>;
