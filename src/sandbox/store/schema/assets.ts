// Tables of the sandbox's assets domain.
export const ASSETS_SCHEMA = `
`;
