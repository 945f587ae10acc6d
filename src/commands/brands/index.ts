// Definitions of the brands group: Brands, the advertisers attached to them,
// their Personas and Documents. `slug` is the Brand's handle throughout.
import { editCommand, operationCommand } from '../_shared/operation-command.js';
import { command } from '../../cli/command-input.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';

const brand = { slug: 'brand' };

const updateBrand = operationCommand({
  path: ['brands', 'update'],
  operationId: 'updateBrand',
  description: "Change a Brand (revision-safe: another writer's change to the same field exits 5 unless --force)",
  resource: 'brand',
  examples: [
    'adops brands update acme --description "Gear for the outdoors"',
    'adops brands update acme -F guidelines=@guidelines.md',
    'adops brands update acme --revision 2 --voice "Only over revision 2"',
  ],
  revisionSafe: true,
});

const updatePersona = operationCommand({
  path: ['brands', 'personas', 'update'],
  operationId: 'updatePersona',
  argNames: brand,
  description: "Change a Persona (revision-safe: another writer's change to the same field exits 5 unless --force)",
  resource: 'persona',
  examples: [
    'adops brands personas update acme weekend-hiker --name "Weekend hikers"',
    'adops brands personas update acme weekend-hiker --goals "summit,camp"',
  ],
  revisionSafe: true,
});

export const brandGroups: GroupSpec[] = [
  { path: ['brands', 'advertisers'], description: "A Brand's advertisers: list, attach, detach" },
  { path: ['brands', 'personas'], description: "A Brand's Personas" },
  { path: ['brands', 'documents'], description: "A Brand's Documents (reference files)" },
];

export const brandCommands: CommandSpec[] = [
  operationCommand({
    path: ['brands', 'list'],
    operationId: 'listBrands',
    description: 'List Brands: name, description, logo and which sections carry prose',
    resource: 'brand',
    examples: ['adops brands list'],
  }),
  operationCommand({
    path: ['brands', 'get'],
    operationId: 'getBrand',
    description: 'Show a Brand with its four sections',
    resource: 'brand',
    examples: ['adops brands get acme', 'adops brands get acme --query voice --output json'],
  }),
  operationCommand({
    path: ['brands', 'create'],
    operationId: 'createBrand',
    description: 'Create a Brand',
    resource: 'brand',
    examples: ['adops brands create --slug acme --name "Acme Outdoor" -F voice=@voice.md'],
  }),
  updateBrand,
  editCommand(updateBrand, {
    path: ['brands', 'edit'],
    description: 'Edit a Brand in $EDITOR (a terminal only): fields as lines, each section as a markdown block; saved like update',
    examples: ['adops brands edit acme', 'EDITOR="code --wait" adops brands edit acme'],
  }),
  operationCommand({
    path: ['brands', 'delete'],
    operationId: 'deleteBrand',
    description: 'Delete a Brand with its Personas and Documents',
    resource: 'brand',
    examples: ['adops brands delete acme --yes'],
  }),

  operationCommand({
    path: ['brands', 'advertisers', 'list'],
    operationId: 'listBrandAdvertisers',
    argNames: brand,
    description: "List a Brand's advertisers",
    resource: 'brandAdvertiser',
    examples: ['adops brands advertisers list acme'],
  }),
  operationCommand({
    path: ['brands', 'advertisers', 'attach'],
    operationId: 'attachBrandAdvertiser',
    argNames: brand,
    description: 'Attach an advertiser to a Brand',
    resource: 'brandAdvertiser',
    examples: ['adops brands advertisers attach acme --advertiser acc_123'],
  }),
  operationCommand({
    path: ['brands', 'advertisers', 'detach'],
    operationId: 'detachBrandAdvertiser',
    argNames: { ...brand, advertiserId: 'advertiser' },
    description: 'Detach an advertiser from a Brand',
    resource: 'brandAdvertiser',
    examples: ['adops brands advertisers detach acme acc_123 --yes'],
  }),

  operationCommand({
    path: ['brands', 'personas', 'list'],
    operationId: 'listPersonas',
    argNames: brand,
    description: "List a Brand's Personas",
    resource: 'persona',
    examples: ['adops brands personas list acme'],
  }),
  operationCommand({
    path: ['brands', 'personas', 'get'],
    operationId: 'getPersona',
    argNames: brand,
    description: 'Show a Persona',
    resource: 'persona',
    examples: ['adops brands personas get acme weekend-hiker'],
  }),
  operationCommand({
    path: ['brands', 'personas', 'create'],
    operationId: 'createPersona',
    argNames: brand,
    description: 'Create a Persona of a Brand',
    resource: 'persona',
    examples: ['adops brands personas create acme --slug weekend-hiker --name "Weekend hiker" -F profile=@hiker.md'],
  }),
  updatePersona,
  editCommand(updatePersona, {
    path: ['brands', 'personas', 'edit'],
    description: 'Edit a Persona in $EDITOR (a terminal only), saved like update',
    examples: ['adops brands personas edit acme weekend-hiker'],
  }),
  operationCommand({
    path: ['brands', 'personas', 'delete'],
    operationId: 'deletePersona',
    argNames: brand,
    description: 'Delete a Persona',
    resource: 'persona',
    examples: ['adops brands personas delete acme weekend-hiker --yes'],
  }),

  operationCommand({
    path: ['brands', 'documents', 'list'],
    operationId: 'listDocuments',
    argNames: brand,
    description: "List a Brand's Documents",
    resource: 'document',
    examples: ['adops brands documents list acme', 'adops brands documents list acme --state ready'],
  }),
  operationCommand({
    path: ['brands', 'documents', 'get'],
    operationId: 'getDocument',
    argNames: brand,
    description: 'Show a Document',
    resource: 'document',
    examples: ['adops brands documents get acme doc_123'],
  }),
  operationCommand({
    path: ['brands', 'documents', 'delete'],
    operationId: 'deleteDocument',
    argNames: brand,
    description: 'Delete a Document and its file',
    resource: 'document',
    examples: ['adops brands documents delete acme doc_123 --yes'],
  }),
  operationCommand({
    path: ['brands', 'documents', 'reserve'],
    operationId: 'reserveDocument',
    argNames: brand,
    description: 'Reserve a Document and get the URL to send its bytes to (step 1 of an upload; `brands documents upload` does all steps)',
    resource: 'document',
    examples: ['adops brands documents reserve acme --filename brand-book.pdf --content-type application/pdf'],
  }),
  operationCommand({
    path: ['brands', 'documents', 'finalize'],
    operationId: 'finalizeDocument',
    argNames: brand,
    description: 'Finalize a Document once its bytes are sent (step 3 of an upload): checks type and size',
    resource: 'document',
    examples: ['adops brands documents finalize acme doc_123'],
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
    notes:
      'The type reserved is what the bytes are: PDF, DOCX (a ZIP named .docx) or UTF-8 text (Markdown or CSV by extension, else plain text); anything else is refused before reserving. ' +
      'Same transfer, progress, resume and exit rules as `adops assets upload`.',
    examples: ['adops brands documents upload acme brand-book.pdf', 'adops brands documents upload acme ./references'],
    load: () => import('./documents-upload.js'),
  }),
];
