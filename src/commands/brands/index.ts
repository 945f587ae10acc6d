// Definitions of the brands group: Brands, the advertisers attached to them,
// their Personas and Documents. `slug` is the Brand's handle throughout.
import { editCommand, tableCommand } from '../_shared/operation-command.js';
import { command } from '../../cli/command-input.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';
import { EXIT } from '../../cli/exit-codes.js';

export const brandGroups: GroupSpec[] = [
  { path: ['brands', 'advertisers'], description: "A Brand's advertisers: list, attach, detach" },
  { path: ['brands', 'personas'], description: "A Brand's Personas" },
  { path: ['brands', 'documents'], description: "A Brand's Documents (reference files)" },
];

export const brandCommands: CommandSpec[] = [
  editCommand(tableCommand('updateBrand'), {
    path: ['brands', 'edit'],
    description: 'Edit a Brand in $EDITOR (a terminal only): fields as lines, each section as a markdown block; saved like update',
    examples: ['adops brands edit acme', 'EDITOR="code --wait" adops brands edit acme'],
  }),

  editCommand(tableCommand('updatePersona'), {
    path: ['brands', 'personas', 'edit'],
    description: 'Edit a Persona in $EDITOR (a terminal only), saved like update',
    examples: ['adops brands personas edit acme weekend-hiker'],
  }),

  command({
    path: ['brands', 'documents', 'upload'],
    description: "Upload files as a Brand's Documents: reserve, send the bytes, finalize; an interrupted run resumes",
    args: [
      { name: 'brand', description: 'Brand slug', required: true },
      { name: 'files', description: 'files, directories or quoted glob patterns', required: true, variadic: true },
    ],
    options: [
      { flags: '--concurrency <n>', description: 'files uploaded at once (default 4)', type: 'int' },
      { flags: '--timeout <seconds>', description: 'how long to wait for a Document to become ready after finalize (default 300)', type: 'number' },
      {
        flags: '--idle-timeout <seconds>',
        description: 'fail a byte transfer when no byte moves for this long (default 60); it is retried twice',
        type: 'number',
      },
    ],
    flowOperations: ['getBrand', 'reserveDocument', 'finalizeDocument', 'getDocument', 'deleteDocument'],
    exits: [EXIT.waitTimeout],
    notes:
      'The type reserved is what the bytes are: PDF, DOCX (a ZIP named .docx) or UTF-8 text (Markdown or CSV by extension, else plain text); anything else is refused before reserving. ' +
      'Same transfer, progress, resume and exit rules as `adops assets upload`.',
    examples: ['adops brands documents upload acme brand-book.pdf', 'adops brands documents upload acme ./references'],
    load: () => import('./documents-upload.js'),
  }),
];
