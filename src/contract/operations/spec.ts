// The plain part of an operation entry (./entry.ts), all but its schemas: what the generated
// table (../generated/operation-table.ts) holds for each operation. Type-only.
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
  /**
   * Its plain CLI command, built from this entry by tableCommand (src/commands/_shared/operation-command.ts)
   * (flags, arguments and checks derive from the schemas). Absent where a hand-written
   * command or flow names the operation instead.
   */
  cli?: OperationCli;
}

/**
 * A plain operation command: where it sits in the CLI and its help. `Noun` names the nouns of
 * src/contract/resources.ts (its ResourceName): `string` while a module declares its entries, because the
 * resources module names operation ids and a type import back from here would be a cycle; read through
 * cliOf (src/contract/command-line.ts), an entry is `OperationCli<ResourceName>`, so a noun that is not
 * declared does not compile.
 */
export interface OperationCli<Noun extends string = string> {
  path: readonly string[];
  description: string;
  /** The noun it shows (src/contract/resources.ts), for table columns and --fields checks. */
  resource: Noun;
  examples: readonly string[];
  notes?: string;
  /** Names of the positional arguments by path parameter, where the default does not fit (e.g. slug -> brand). */
  argNames?: Readonly<Record<string, string>>;
  /** Flag names by field, where the default (kebab-case; `campaignId` -> `campaign`) does not fit. */
  flagNames?: Readonly<Record<string, string>>;
  /** Fields that get no flag of their own. */
  noFlag?: readonly string[];
  /** Adds --wait/--timeout/--interval: poll the result until it is no longer running. */
  watch?: boolean;
  /** A revision-safe update (src/commands/_shared/edit.ts): --revision stays strict, --force overrides. */
  revisionSafe?: boolean;
  hidden?: boolean;
}
