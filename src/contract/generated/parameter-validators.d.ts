// Written by `npm run gen` beside parameter-validators.js (src/contract/request-schemas.ts). Do not edit.
import type { Validate } from '../validation-words.js';

/** Per operation (`<id>_params`, `<id>_query`): the parameters it requires, and each parameter's validator. */
export declare const PARAMETERS: Record<string, { required: string[]; fields: Record<string, Validate> }>;
