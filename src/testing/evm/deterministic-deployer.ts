import { type Address, concat, getContractAddress, type Hex, type HDAccount, pad } from 'viem';
import type { LocalChain } from './local-chain';
import { hasCode, minedReceipt, testClient } from './smart-account';

/**
 * Arachnid's deterministic deployment proxy, at the address every chain has it: CREATE2 with the
 * first 32 bytes of the call data as salt and the rest as init code. ERC-4337's EntryPoints were
 * deployed through it, so the same init code and salt land at their canonical addresses here.
 */
export const DETERMINISTIC_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/** The proxy's runtime code (its keyless deployment transaction's init code returns this). */
const DEPLOYER_RUNTIME: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';

/**
 * Deploys `initCode` through the proxy unless its address has code already: idempotent, so a
 * kit helper called twice on one chain (or by two specs' helpers) reuses what is there.
 */
export async function deployDeterministic(
  chain: LocalChain,
  sender: HDAccount,
  initCode: Hex,
  salt: Hex = pad('0x00', { size: 32 }),
): Promise<Address> {
  const address = getContractAddress({
    opcode: 'CREATE2',
    from: DETERMINISTIC_DEPLOYER,
    salt,
    bytecode: initCode,
  });
  if (await hasCode(chain, address)) return address;
  if (!(await hasCode(chain, DETERMINISTIC_DEPLOYER))) {
    // The proxy's real deployment is a pre-EIP-155 transaction a local node need not replay.
    await testClient(chain).setCode({
      address: DETERMINISTIC_DEPLOYER,
      bytecode: DEPLOYER_RUNTIME,
    });
  }
  const hash = await chain.wallet(sender).sendTransaction({
    to: DETERMINISTIC_DEPLOYER,
    data: concat([salt, initCode]),
  });
  await minedReceipt(chain, hash);
  if (!(await hasCode(chain, address))) throw new Error(`CREATE2 left no code at ${address}`);
  return address;
}
