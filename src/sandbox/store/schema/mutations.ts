// Tables of the sandbox's mutations domain.
export const MUTATIONS_SCHEMA = `
`;
