// Tables of the sandbox's platform domain.
export const PLATFORM_SCHEMA = `
`;
