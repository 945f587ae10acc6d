// Documents: files attached to a Brand. Reserve → PUT the bytes to uploadUrl
// (never through the API) → finalize. States: pending_upload → ready.
import { z } from 'zod';
import { deleted, epochMs, pageOf, pageQuery } from './shared.js';

export const DOCUMENT_STATES = ['pending_upload', 'ready'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

export const documentSchema = z
  .object({
    documentId: z.string().meta({ example: 'doc_8fj2k1' }),
    brandSlug: z.string(),
    filename: z.string(),
    contentType: z.string().meta({ description: 'Media type named when reserving.' }),
    sizeBytes: z.number().int().nullable().meta({ description: 'Size of the stored file; null until finalized.' }),
    state: z.enum(DOCUMENT_STATES).meta({ description: 'pending_upload until a finalize accepts the bytes, then ready.' }),
    createdAt: epochMs,
    updatedAt: epochMs,
    finalizedAt: epochMs.nullable(),
  })
  .meta({ id: 'Document' });

export const reservedDocumentSchema = z
  .object({
    ...documentSchema.shape,
    uploadUrl: z.string().meta({ description: 'PUT the bytes here with the same Content-Type; no API key. Good for one upload.' }),
    uploadExpiresAt: epochMs.meta({ description: 'The upload URL stops working after this time.' }),
  })
  .meta({ id: 'ReservedDocument' });

export const documentPageSchema = pageOf(documentSchema, 'DocumentPage');
export const listDocumentsQuery = z.object({
  ...pageQuery,
  state: z.enum(DOCUMENT_STATES).optional().meta({ description: 'Only documents in this state.' }),
});

export const reserveDocumentBody = z
  .strictObject({
    filename: z.string().min(1).max(255).meta({ example: 'brand-book.pdf' }),
    contentType: z
      .string()
      .min(1)
      .max(255)
      .meta({ description: 'Media type of the file (else 415 unsupported_type with allowed).', example: 'application/pdf' }),
    sizeBytes: z.number().int().min(0).optional().meta({
      description:
        'Expected size: over the limit of contentType answers 413 too_large at once (nothing reserved); the storage takes no more than this. The limit is checked again on what landed, at finalize.',
    }),
  })
  .meta({ id: 'ReserveDocument' });

export const brandDocumentParams = z.object({
  slug: z.string().meta({ description: 'Brand handle.' }),
});
export const documentParams = z.object({
  slug: z.string().meta({ description: 'Brand handle.' }),
  documentId: z.string().meta({ description: 'Document id.' }),
});

export const documentDeletedSchema = deleted({ brandSlug: z.string(), documentId: z.string() }, 'DocumentDeleted');

export type Document = z.infer<typeof documentSchema>;
export type ReservedDocument = z.infer<typeof reservedDocumentSchema>;
export type ReserveDocument = z.infer<typeof reserveDocumentBody>;
