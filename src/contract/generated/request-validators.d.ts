// Written by `npm run gen` beside request-validators.js (src/contract/validator-build.ts). Do not edit.
// Its exports are read by name (src/contract/validation-words.ts: Validators).
export {};
