// Definitions of the sandbox group (data only).
import { command } from '../../cli/command-input.js';
import type { CommandSpec } from '../../cli/registry.js';

export const sandboxCommands: CommandSpec[] = [
  command({
    path: ['sandbox', 'serve'],
    description: 'Run the local sandbox of the service until Ctrl-C',
    options: [
      { flags: '--host <host>', description: 'address to listen on', defaultValue: '127.0.0.1' },
      { flags: '--port <port>', description: 'port (0 picks a free one)', type: 'int', defaultValue: 4010 },
      { flags: '--data <path>', description: 'SQLite file, or :memory: for a throw-away world' },
      { flags: '--fixtures <file>', description: 'fixture file describing the world to load' },
      { flags: '--reset', description: 'discard stored data and reload the fixtures' },
      {
        flags: '--ingest-every <seconds>',
        description: 'refresh stored reads (ingestion) from the providers this often; 0 turns it off (then only POST /_sandbox/ingest does)',
        type: 'number',
        defaultValue: 30,
      },
      { flags: '--login [profile]', description: 'point a profile (default "sandbox") at this sandbox with the first demo key, and make it current' },
      {
        flags: '--storage-quota <size>',
        description: 'bytes each organization may keep stored plus in flight, e.g. 500MiB or 2GiB (default 5GiB); past it an upload answers 413 too_large',
      },
      {
        flags: '--as-of <YYYY-MM-DD>',
        description:
          'serve the service as it was on this day: before 2026-09-24, schema mismatches answer 422 {"type":"validation"}, unknown paths plain-text NOT_FOUND, and Observe, Context and Assets check the schema before the key',
      },
    ],
    notes: 'Prints exactly one line on stdout when ready: "listening on http://HOST:PORT". The demo keys go to stderr.',
    examples: [
      'adops sandbox serve --login',
      'adops sandbox serve --port 0 --data :memory:',
      'adops sandbox serve --as-of 2026-09-23 --port 0 --data :memory:',
    ],
    load: () => import('./serve.js'),
  }),
  command({
    path: ['sandbox', 'keys'],
    description: "List the sandbox's demo API keys IN FULL (they are public fixtures, not secrets)",
    options: [
      { flags: '--data <path>', description: 'SQLite file of the sandbox' },
      { flags: '--fixtures <file>', description: 'fixture file' },
    ],
    load: () => import('./keys.js'),
  }),
];
