/** The wallet stand-in lives beside the testing entry (built without hardhat); kept here for specs. */
export { deserializeTransaction, signAndSend, type WalletRun } from '../wallet';
