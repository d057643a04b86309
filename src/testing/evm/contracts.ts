import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from 'solc';
import { type Abi, type Address, type Hex, parseAbi, type TransactionReceipt } from 'viem';
import type { LocalChain, LocalWallet } from './local-chain';
import { compileWithOpenZeppelin } from './oz-compile';

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

/** A compiled contract as an npm package ships it (Hardhat or Truffle JSON: abi and bytecode). */
export function npmArtifact(path: string): Artifact {
  const json = JSON.parse(readFileSync(require.resolve(path), 'utf8')) as {
    abi: Abi;
    bytecode: string;
  };
  const bytecode = json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`;
  return { abi: json.abi, bytecode: bytecode as Hex };
}

/**
 * Uniswap V2 as published on npm. The router's hard-coded pair init code hash matches the pair
 * bytecode of @uniswap/v2-core 1.0.1 (checked by src/testing/evm/dex-fixture.ts on every deployment).
 */
export const UNISWAP_V2 = {
  factory: npmArtifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
  pair: npmArtifact('@uniswap/v2-core/build/UniswapV2Pair.json'),
  router02: npmArtifact('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
  weth9: npmArtifact('@uniswap/v2-periphery/build/WETH9.json'),
};

export const ERC20_ABI = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function decimals() view returns (uint8)',
  'function deposit() payable',
]);

let testToken: Artifact | undefined;

/** TestToken.sol compiled with the npm compiler (solc-js), once per test file. */
export function testTokenArtifact(): Artifact {
  if (testToken) return testToken;
  const input = {
    language: 'Solidity',
    sources: {
      'TestToken.sol': { content: readFileSync(join(__dirname, 'TestToken.sol'), 'utf8') },
    },
    settings: {
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const { abi, evm } = output.contracts['TestToken.sol'].TestToken;
  testToken = { abi, bytecode: `0x${evm.bytecode.object}` };
  return testToken;
}

async function mined(chain: LocalChain, hash: Hex): Promise<TransactionReceipt> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`Transaction ${hash} reverted`);
  return receipt;
}

export async function deploy(
  chain: LocalChain,
  wallet: LocalWallet,
  artifact: Artifact,
  args: readonly unknown[] = [],
): Promise<Address> {
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
  });
  const receipt = await mined(chain, hash);
  if (!receipt.contractAddress) throw new Error('Deployment created no contract');
  return receipt.contractAddress;
}

/** Sends a contract call from the wallet and waits until it is mined successfully. */
export async function call(
  chain: LocalChain,
  wallet: LocalWallet,
  request: {
    address: Address;
    abi: Abi;
    functionName: string;
    args?: readonly unknown[];
    value?: bigint;
  },
): Promise<TransactionReceipt> {
  return mined(chain, await wallet.writeContract(request));
}

export function deployToken(
  chain: LocalChain,
  wallet: LocalWallet,
  {
    name,
    symbol,
    decimals,
    supply,
  }: { name: string; symbol: string; decimals: number; supply: bigint },
): Promise<Address> {
  return deploy(chain, wallet, testTokenArtifact(), [name, symbol, decimals, supply]);
}

/**
 * The local chain's USDC (Eip3009Token.sol): TestToken's ERC-20 plus EIP-3009's transfers on a
 * signed authorization, as Circle's FiatToken has them on Fuji, under the EIP-712 domain
 * (`name`, `version`) a payer signs: what x402's `exact` scheme settles with.
 */
export function deployEip3009Token(
  chain: LocalChain,
  wallet: LocalWallet,
  {
    name,
    symbol,
    decimals,
    supply,
    version,
  }: { name: string; symbol: string; decimals: number; supply: bigint; version: string },
): Promise<Address> {
  const { Eip3009Token } = compileWithOpenZeppelin('Eip3009Token.sol', ['Eip3009Token'], 'cancun');
  return deploy(chain, wallet, Eip3009Token, [name, symbol, decimals, supply, version]);
}

export function balanceOf(chain: LocalChain, token: Address, owner: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: token,
    abi: ERC20_ABI,
    functionName: 'balanceOf',
    args: [owner],
  });
}
