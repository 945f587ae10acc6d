// Every table of the sandbox's store, in creation order. Each domain owns its
// own schema file; this list only orders them. Applied once per database in a
// transaction, recorded in the `migrations` table (see db.ts).
import { PLATFORM_SCHEMA } from './schema/platform.js';
import { OBSERVE_ROW_JSON, OBSERVE_SCHEMA } from './schema/observe.js';
import { MUTATIONS_DUE, MUTATIONS_SCHEMA } from './schema/mutations.js';
import { CONTEXT_SCHEMA } from './schema/context.js';
import { ASSET_SHA256, ASSETS_SCHEMA, UPLOAD_REFUSALS } from './schema/assets.js';
import { seqWithoutAutoincrement } from './schema/seq-rebuild.js';
import { SEQ_HIGH_WATER } from './schema/seq-high-water.js';
import type { Database } from './sqlite.js';

export interface Migration {
  name: string;
  sql: string;
  /** Run after `sql`, in the same transaction: a change SQL text alone cannot say (it reads the store's own schema). */
  step?: (db: Database) => void;
  /**
   * Foreign keys off while this migration runs (SQLite ignores that pragma inside a transaction,
   * so db.ts sets it around it), and every key checked before it commits: for tables made again,
   * whose DROP would otherwise delete the rows that refer to them.
   */
  foreignKeysOff?: boolean;
}

export const MIGRATIONS: readonly Migration[] = [
  { name: '001_platform', sql: PLATFORM_SCHEMA },
  { name: '002_observe', sql: OBSERVE_SCHEMA },
  { name: '003_mutations', sql: MUTATIONS_SCHEMA },
  { name: '004_context', sql: CONTEXT_SCHEMA },
  { name: '005_assets', sql: ASSETS_SCHEMA },
  { name: '006_observe_row_json', sql: OBSERVE_ROW_JSON },
  { name: '007_asset_sha256', sql: ASSET_SHA256 },
  { name: '008_upload_refusals', sql: UPLOAD_REFUSALS },
  { name: '009_seq_without_autoincrement', sql: '', step: seqWithoutAutoincrement, foreignKeysOff: true },
  { name: '010_seq_high_water', sql: SEQ_HIGH_WATER },
  { name: '011_mutation_due', sql: MUTATIONS_DUE },
];
