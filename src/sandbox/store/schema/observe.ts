// Tables of the sandbox's observe domain.
export const OBSERVE_SCHEMA = `
`;
