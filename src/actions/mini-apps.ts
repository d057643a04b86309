import { defineMiniApp, type MiniAppDeclaration } from '../kit';
import { tipAction } from './tip/tip.action';

/** Everyday lookups that need no wallet: calculator, user lookup, weather. */
export const TOOLS_MINI_APP = defineMiniApp({
  id: 'tools',
  title: 'Everyday tools',
  description: 'Do a quick calculation, look up a user profile or check the weather in a city',
  icon: 'tools.svg',
});

/**
 * What a connected wallet does on the chain: portfolio, send token, best swap, and (with
 * TIP_RECIPIENT set) a tip to the project that the platform's client sends itself.
 */
export const WALLET_MINI_APP = defineMiniApp({
  id: 'wallet',
  title: 'Wallet',
  description: 'See how your balances changed, send tokens and swap at the best rate',
  icon: 'wallet.svg',
  chainActions: [tipAction],
});

/** Collectibles made from what the user uploads: mint an NFT from an image. */
export const COLLECTIBLES_MINI_APP = defineMiniApp({
  id: 'collectibles',
  title: 'Collectibles',
  description: 'Turn an image of yours into an NFT in your wallet',
  icon: 'collectibles.svg',
});

/** What the service knows of the signed-in user: their transactions (needs Sign-In with Ethereum). */
export const ACCOUNT_MINI_APP = defineMiniApp({
  id: 'account',
  title: 'My account',
  description: 'Sign in with your wallet and see the transactions prepared for you',
  icon: 'account.svg',
});

/** Every mini-app the service hosts: a new one is declared above and listed here. */
export const MINI_APPS: readonly MiniAppDeclaration[] = [
  TOOLS_MINI_APP,
  WALLET_MINI_APP,
  COLLECTIBLES_MINI_APP,
  ACCOUNT_MINI_APP,
];
