/**
 * Where `npm run dev` listens unless told otherwise, apart from the chain's code (which loads
 * Hardhat): `npm run sign` reads it without starting anything.
 */
export const DEV_CHAIN_PORT = 8545;
/** The service's own default (PORT, src/config): the URL `npm run sign` reads intents from. */
export const DEV_SERVICE_PORT = 3000;
