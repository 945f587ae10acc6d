// Definitions of the skills group: Skills (ad-ops playbooks) and the Skill Catalog.
import { editCommand, tableCommand } from '../_shared/operation-command.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';

export const skillGroups: GroupSpec[] = [{ path: ['skills', 'catalog'], description: 'The Skill Catalog: ready-made playbooks to import' }];

export const skillCommands: CommandSpec[] = [
  editCommand(tableCommand('updateSkill'), {
    path: ['skills', 'edit'],
    description: 'Edit a Skill in $EDITOR (a terminal only), saved like update',
    examples: ['adops skills edit budget-pacing'],
  }),
];
