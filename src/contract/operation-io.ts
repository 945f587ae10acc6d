// What an operation takes and answers, as types derived from its schemas in
// ./operation-schemas.ts. Type-only: every import here is erased, so the typed
// client can name an operation's input and output without loading zod.
import type { z } from 'zod';
import type { OPERATION_SCHEMAS } from './operation-schemas.js';
import type { OperationId } from './operations.js';

type Schemas<Id extends OperationId> = (typeof OPERATION_SCHEMAS)[Id];

/** A part is required when its schema requires something, optional when every field of it may be left out. */
type Part<Name extends string, S> = S extends z.ZodType
  ? object extends z.input<S>
    ? { [K in Name]?: z.input<S> }
    : { [K in Name]: z.input<S> }
  : { [K in Name]?: never };

type BodyPart<S> = S extends { body: infer B extends z.ZodType }
  ? S extends { bodyOptional: true }
    ? { body?: z.input<B> }
    : { body: z.input<B> }
  : { body?: never };

type Field<S, K extends string> = S extends { [P in K]: infer T } ? T : undefined;

/** The input of an operation: its path params, query, JSON body and headers, each required where its schema is. */
export type OperationInput<Id extends OperationId> = Part<'params', Field<Schemas<Id>, 'params'>> &
  Part<'query', Field<Schemas<Id>, 'query'>> &
  Part<'headers', Field<Schemas<Id>, 'headers'>> &
  BodyPart<Schemas<Id>>;

/** The body of an operation's 2xx answer (`unknown` when the contract states no schema for it). */
export type OperationOutput<Id extends OperationId> = Schemas<Id> extends { response: infer R extends z.ZodType } ? z.output<R> : unknown;
