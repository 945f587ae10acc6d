// Definitions of the skills group: Skills (ad-ops playbooks) and the Skill Catalog.
import { editCommand, operationCommand } from '../_shared/operation-command.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';

// Revision-safe update and edit (src/commands/_shared/edit.ts): read, apply with
// the revision, re-apply after a 409 unless the other writer changed the same field.
// Shared by the brands, plans and assets definitions (data only: the help path
// may load group index files, not src/commands/_shared).
const updateSkill = operationCommand({
  path: ['skills', 'update'],
  operationId: 'updateSkill',
  description: "Change a Skill (revision-safe: another writer's change to the same field exits 5 unless --force)",
  resource: 'skill',
  examples: [
    'adops skills update budget-pacing --name "Budget pacing v2"',
    'adops skills update budget-pacing -F body=@pacing.md',
    'adops skills update budget-pacing --revision 3 --description "Only over revision 3"',
  ],
  revisionSafe: true,
});

export const skillGroups: GroupSpec[] = [{ path: ['skills', 'catalog'], description: 'The Skill Catalog: ready-made playbooks to import' }];

export const skillCommands: CommandSpec[] = [
  operationCommand({
    path: ['skills', 'list'],
    operationId: 'listSkills',
    description: 'List Skills (without their bodies)',
    resource: 'skill',
    examples: ['adops skills list', 'adops skills list --source catalog --all --output ndjson'],
  }),
  operationCommand({
    path: ['skills', 'get'],
    operationId: 'getSkill',
    description: 'Show a Skill with its body',
    resource: 'skill',
    examples: ['adops skills get budget-pacing', 'adops skills get budget-pacing --query body --output json'],
  }),
  operationCommand({
    path: ['skills', 'create'],
    operationId: 'createSkill',
    description: 'Create a Skill',
    resource: 'skill',
    examples: ['adops skills create --slug budget-pacing --name "Budget pacing" -F body=@pacing.md'],
  }),
  updateSkill,
  editCommand(updateSkill, {
    path: ['skills', 'edit'],
    description: 'Edit a Skill in $EDITOR (a terminal only), saved like update',
    examples: ['adops skills edit budget-pacing'],
  }),
  operationCommand({
    path: ['skills', 'delete'],
    operationId: 'deleteSkill',
    description: 'Delete a Skill',
    resource: 'skill',
    examples: ['adops skills delete budget-pacing --yes'],
  }),
  operationCommand({
    path: ['skills', 'reimport'],
    operationId: 'reimportSkill',
    description: 'Re-import a catalog-sourced Skill from the catalog (overwrites local edits)',
    resource: 'skill',
    examples: ['adops skills reimport budget-pacing', 'adops skills reimport budget-pacing --revision 4'],
  }),
  operationCommand({
    path: ['skills', 'catalog', 'list'],
    operationId: 'listSkillCatalog',
    description: 'List the Skill Catalog',
    resource: 'catalogSkill',
    examples: ['adops skills catalog list'],
  }),
  operationCommand({
    path: ['skills', 'catalog', 'import'],
    operationId: 'importCatalogSkill',
    description: 'Import a Catalog Skill as a Skill of your organization',
    resource: 'skill',
    examples: ['adops skills catalog import creative-refresh', 'adops skills catalog import creative-refresh --slug refresh'],
  }),
];
