// Tables of the sandbox's context domain.
export const CONTEXT_SCHEMA = `
`;
