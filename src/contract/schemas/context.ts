// zod schemas of the Context API (Skills, Skill Catalog, Brands and their
// advertisers, Personas, Documents, Campaign Plans, Line Items). One file per
// resource under ./context/; this index re-exports them.
export { deleteQuery, isoDate, pageOf } from './context/shared.js';
export * from './context/skills.js';
export * from './context/brands.js';
export * from './context/personas.js';
export * from './context/documents.js';
export * from './context/line-items.js';
export * from './context/plans.js';
