// What one operation module entry says: the whole operation, as plain data.
// Type-only imports: a module of entries loads nothing but its own strings.
import type { KnownErrorCode } from '../errors.js';
import type { Permission } from '../ids.js';

export type ApiName = 'observe' | 'mutations' | 'context' | 'assets';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** What an operation does, so generic code (paging, confirmation prompts) can treat kinds alike. */
export type OperationKind = 'list' | 'get' | 'create' | 'update' | 'delete' | 'action';

/** One entry of an operation module; its id is the key. */
export interface OperationSpec {
  api: ApiName;
  method: HttpMethod;
  /** Path template with {param} segments, as in the spec. */
  path: string;
  permission: Permission;
  kind: OperationKind;
  summary: string;
  /** Observe: the path names the advertiser and the provider is asked now. */
  live?: boolean;
  /** Each 2xx status with what it means (the published documents' descriptions); its body is the `response` schema. */
  responses: Readonly<Record<number, string>>;
  /** Codes this operation may send besides the common ones (400, 401, 402, 403). */
  errors: readonly KnownErrorCode[];
}
