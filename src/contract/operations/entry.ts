// One entry of an operation module (./<api>.ts): the whole operation, its request and
// response schemas included. `npm run gen` writes every entry without its `schemas`
// to ../generated/operation-table.ts, the plain table the CLI's fast paths read. Type-only.
import type { OperationSchemas } from './schemas-shape.js';
import type { OperationSpec } from './spec.js';

export interface OperationEntry extends OperationSpec {
  /** What it accepts and answers: zod schemas, inline or named in ../schemas/<api>.ts when several operations share them. */
  schemas: OperationSchemas;
}
