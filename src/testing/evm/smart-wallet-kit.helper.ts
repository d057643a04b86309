import {
  type Address,
  concat,
  encodeFunctionData,
  type Hex,
  type HDAccount,
  parseEther,
  parseUnits,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { call, ERC20_ABI } from './contracts';
import { DEV_MNEMONIC } from './local-chain';
import { testClient } from './smart-account';
import type { TestChain } from './test-chain';

/** The 16 bytes every ERC-8021 data suffix ends with. */
export const ERC8021_MARKER: Hex = `0x${'8021'.repeat(8)}`;
/** An ERC-8021 data suffix: 34 bytes of attribution, then the marker (50 bytes). */
export const SUFFIX: Hex = concat([`0x${'ab'.repeat(34)}`, ERC8021_MARKER]);
/** What each proving transfer moves: 12.5 of the fixture's 6-decimal USDC. */
export const AMOUNT = parseUnits('12.5', 6);

/** A key of the development mnemonic past the funded ones: it holds nothing on the chain. */
export const ownerAt = (index: number): HDAccount =>
  mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });

/** An address no test has touched, to read a transfer's effect alone. */
export const recipientAt = (index: number): Address => ownerAt(100 + index).address;

/** An owner key holding 1 of the native coin: a delegated EOA pays its own gas. */
export async function fundedOwner(testChain: TestChain, index: number): Promise<HDAccount> {
  const owner = ownerAt(index);
  await testClient(testChain.chain).setBalance({ address: owner.address, value: parseEther('1') });
  return owner;
}

/** 100 USDC from the first test-chain user to `to`. */
export async function fundUsdc({ chain, fixture, users }: TestChain, to: Address): Promise<void> {
  await call(chain, chain.wallet(users[0]), {
    address: fixture.usdc,
    abi: ERC20_ABI,
    functionName: 'transfer',
    args: [to, parseUnits('100', 6)],
  });
}

/** USDC transfer calldata with the suffix appended: what an attributed intent carries. */
export function suffixedTransfer(recipient: Address): Hex {
  return concat([
    encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [recipient, AMOUNT] }),
    SUFFIX,
  ]);
}
