// Skills (ad-ops playbooks) and the Skill Catalog they can be imported from.
import { z } from 'zod';
import { epochMs, markdown, optionalFields, pageOf, pageQuery, readRevision, revision, slugInput, slugOut, deleted } from './shared.js';

export const SKILL_SOURCES = ['custom', 'catalog'] as const;

const skillFields = {
  slug: slugOut,
  name: z.string().meta({ example: 'Weekly pacing check' }),
  description: z.string(),
  source: z.enum(SKILL_SOURCES).meta({ description: '`custom` (written here) or `catalog` (imported from the Skill Catalog).' }),
  catalogSlug: z.string().nullable().meta({ description: 'Catalog entry it was imported from; null for custom.' }),
  catalogVersion: z.string().nullable().meta({ description: 'Catalog version last imported; null for custom.' }),
  importedAt: epochMs.nullable().meta({ description: 'When it was last (re-)imported; null for custom.' }),
  revision,
  createdAt: epochMs,
  updatedAt: epochMs,
};

export const skillSummarySchema = z.object(skillFields).meta({
  id: 'SkillSummary',
  description: 'A Skill as listed: everything but the body.',
});

export const skillSchema = z.object({ ...skillFields, body: z.string().meta({ description: 'The playbook, markdown.' }) }).meta({ id: 'Skill' });

export const skillPageSchema = pageOf(skillSummarySchema, 'SkillPage');

export const listSkillsQuery = z.object({
  ...pageQuery,
  source: z.enum(SKILL_SOURCES).optional().meta({ description: 'Only custom or only catalog-sourced Skills.' }),
});

const editable = {
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  body: markdown(256 * 1024, 'Markdown, up to 256 KiB.'),
};

export const createSkillBody = z.strictObject({ slug: slugInput, ...optionalFields(editable), name: editable.name }).meta({ id: 'CreateSkill' });

export const updateSkillBody = z
  .strictObject({ revision: readRevision, ...optionalFields(editable) })
  .meta({ id: 'UpdateSkill', description: 'Fields to change; `revision` is required. The slug cannot change.' });

export const reimportSkillBody = z
  .strictObject({ revision: readRevision.optional() })
  .meta({ id: 'ReimportSkill', description: 'Optional: the revision you read (re-import overwrites local edits).' });

export const importCatalogSkillBody = z
  .strictObject({ slug: slugInput.optional().meta({ description: 'Handle of the new Skill; default the catalogSlug.' }) })
  .meta({ id: 'ImportCatalogSkill' });

export const skillParams = z.object({ slug: z.string().meta({ description: 'Skill handle.' }) });
export const catalogParams = z.object({ catalogSlug: z.string().meta({ description: 'Catalog entry handle.' }) });

export const catalogSkillSchema = z
  .object({
    catalogSlug: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.string().meta({ description: 'Catalog version (semver); grows when the service revises the playbook.', example: '1.2.0' }),
    body: z.string().meta({ description: 'The playbook, markdown.' }),
    updatedAt: epochMs,
  })
  .meta({ id: 'CatalogSkill', description: 'A playbook the service provides.' });

export const catalogPageSchema = pageOf(catalogSkillSchema, 'CatalogSkillPage');
export const listCatalogQuery = z.object({ ...pageQuery });

export const skillDeletedSchema = deleted({ slug: z.string() }, 'SkillDeleted');

export type Skill = z.infer<typeof skillSchema>;
export type SkillSummary = z.infer<typeof skillSummarySchema>;
export type CatalogSkill = z.infer<typeof catalogSkillSchema>;
export type CreateSkill = z.infer<typeof createSkillBody>;
export type UpdateSkill = z.infer<typeof updateSkillBody>;
