// Personas: each belongs to one Brand; the handle is (brand slug, persona slug).
import { z } from 'zod';
import { deleted, epochMs, optionalFields, pageOf, pageQuery, readRevision, revision, slugInput, slugOut } from './shared.js';

const list = (what: string) =>
  z
    .array(z.string().min(1).max(500))
    .max(50)
    .meta({ description: `${what}; up to 50 short entries.` });

export const personaSchema = z
  .object({
    brandSlug: slugOut,
    slug: slugOut,
    name: z.string().meta({ example: 'Weekend hiker' }),
    description: z.string(),
    demographics: z.string().nullable().meta({ description: 'Who they are (markdown); null when not written.' }),
    goals: z.array(z.string()),
    painPoints: z.array(z.string()),
    channels: z.array(z.string()).meta({ description: 'Where they can be reached, e.g. provider tokens or channel words.' }),
    revision,
    createdAt: epochMs,
    updatedAt: epochMs,
  })
  .meta({ id: 'Persona' });

export const personaPageSchema = pageOf(personaSchema, 'PersonaPage');
export const listPersonasQuery = z.object({ ...pageQuery });

const editable = {
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  demographics: z
    .string()
    .max(64 * 1024)
    .nullable(),
  goals: list('Goals'),
  painPoints: list('Pain points'),
  channels: list('Channels'),
};

export const createPersonaBody = z.strictObject({ slug: slugInput, ...optionalFields(editable), name: editable.name }).meta({ id: 'CreatePersona' });

export const updatePersonaBody = z
  .strictObject({ revision: readRevision, ...optionalFields(editable) })
  .meta({ id: 'UpdatePersona', description: 'Fields to change; `revision` is required. The slug cannot change.' });

export const personaParams = z.object({
  slug: z.string().meta({ description: 'Brand handle.' }),
  personaSlug: z.string().meta({ description: 'Persona handle within the Brand.' }),
});

export const personaDeletedSchema = deleted({ brandSlug: z.string(), slug: z.string() }, 'PersonaDeleted');

export type Persona = z.infer<typeof personaSchema>;
export type CreatePersona = z.infer<typeof createPersonaBody>;
export type UpdatePersona = z.infer<typeof updatePersonaBody>;
