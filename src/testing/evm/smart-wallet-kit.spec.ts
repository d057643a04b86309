import {
  type Address,
  concat,
  encodeFunctionData,
  getContractAddress,
  type Hash,
  type Hex,
  type HDAccount,
  parseEther,
  parseEventLogs,
  parseUnits,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { entryPoint07Abi } from 'viem/account-abstraction';
import { balanceOf, call, ERC20_ABI } from './contracts';
import { ENTRY_POINT_07_ADDRESS, ERC4337_07, erc4337Account } from './erc4337-account';
import { delegationCode, eip7702Account } from './eip7702-account';
import { DEV_MNEMONIC } from './local-chain';
import { SAFE_EXECUTION_ABI, safeAccount } from './safe-account';
import { type SmartAccount, testClient } from './smart-account';
import { startTestChain, type TestChain } from './test-chain';

/** An ERC-8021 data suffix: 34 bytes of attribution, then the 16-byte marker (50 bytes). */
const SUFFIX: Hex = concat([`0x${'ab'.repeat(34)}`, `0x${'8021'.repeat(8)}`]);
const AMOUNT = parseUnits('12.5', 6);

let testChain: TestChain;
beforeAll(async () => {
  testChain = await startTestChain();
});
afterAll(() => testChain.stop());

/** A fresh owner key past the kit's relayer (9): it holds nothing on the chain. */
const ownerAt = (index: number): HDAccount =>
  mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
const recipientAt = (index: number): Address => ownerAt(100 + index).address;

async function fundUsdc(to: Address): Promise<void> {
  const { chain, fixture, users } = testChain;
  await call(chain, chain.wallet(users[0]), {
    address: fixture.usdc,
    abi: ERC20_ABI,
    functionName: 'transfer',
    args: [to, parseUnits('100', 6)],
  });
}

/** USDC transfer calldata with the suffix appended: what an attributed intent carries. */
function suffixedTransfer(recipient: Address): Hex {
  return concat([
    encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [recipient, AMOUNT] }),
    SUFFIX,
  ]);
}

/** Funds the wallet, sends the suffixed transfer through it, checks balance and input. */
async function proveTransfer(wallet: SmartAccount, recipient: Address): Promise<Hash> {
  const { chain, fixture } = testChain;
  await fundUsdc(wallet.address);
  const data = suffixedTransfer(recipient);
  const hash = await wallet.execute({ to: fixture.usdc, data });
  expect(await balanceOf(chain, fixture.usdc, recipient)).toBe(AMOUNT);
  const transaction = await chain.publicClient.getTransaction({ hash });
  expect(transaction.input.toLowerCase()).toContain(data.slice(2).toLowerCase());
  return hash;
}

describe('ERC-4337 (EntryPoint v0.7, SimpleAccount)', () => {
  it('runs at the canonical address with the SenderCreator it deployed', async () => {
    const { chain } = testChain;
    const owner = ownerAt(20);
    await erc4337Account(chain, owner);
    const senderCreator = getContractAddress({ from: ENTRY_POINT_07_ADDRESS, nonce: 1n });
    expect(senderCreator).toBe('0xEFC2c1444eBCC4Db75e7613d20C6a62fF67A167C');
    expect(await chain.publicClient.getCode({ address: senderCreator })).not.toBe('0x');
  });

  it('executes a suffixed transfer, gas prepaid on the EntryPoint', async () => {
    const { chain } = testChain;
    const wallet = await erc4337Account(chain, ownerAt(21));
    const hash = await proveTransfer(wallet, recipientAt(1));
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const [event] = parseEventLogs({
      abi: entryPoint07Abi,
      eventName: 'UserOperationEvent',
      logs: receipt.logs,
    });
    expect(event.args).toMatchObject({ sender: wallet.address, success: true });
    expect(
      parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: receipt.logs }),
    ).toHaveLength(1);
    expect(await chain.publicClient.getBalance({ address: wallet.address })).toBe(0n);
    // A second operation: the account exists now, and the nonce moved on.
    const again = await wallet.execute({
      to: testChain.fixture.usdc,
      data: suffixedTransfer(recipientAt(1)),
    });
    expect(await balanceOf(chain, testChain.fixture.usdc, recipientAt(1))).toBe(2n * AMOUNT);
    expect(again).not.toBe(hash);
  });

  it('mines a failing inner call as success=false', async () => {
    const { chain, fixture } = testChain;
    const wallet = await erc4337Account(chain, ownerAt(22));
    // The account holds no USDC: the transfer reverts inside the operation, not the bundle.
    const hash = await wallet.execute({ to: fixture.usdc, data: suffixedTransfer(recipientAt(2)) });
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const [event] = parseEventLogs({
      abi: entryPoint07Abi,
      eventName: 'UserOperationEvent',
      logs: receipt.logs,
    });
    expect(event.args.success).toBe(false);
    expect(ERC4337_07.entryPoint.abi.length).toBeGreaterThan(0);
  });
});

describe('Safe 1.5.0 (1-of-1)', () => {
  it('executes a suffixed transfer with ExecutionSuccess', async () => {
    const { chain } = testChain;
    const owner = ownerAt(30);
    const safe = await safeAccount(chain, owner);
    expect(await safeAccount(chain, owner)).toMatchObject({ address: safe.address });
    const hash = await proveTransfer(safe, recipientAt(3));
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const events = parseEventLogs({ abi: SAFE_EXECUTION_ABI, logs: receipt.logs });
    expect(events.map((event) => [event.eventName, event.address])).toEqual([
      ['ExecutionSuccess', safe.address.toLowerCase()],
    ]);
  });

  it('mines a failing inner call with ExecutionFailure when safeTxGas is set', async () => {
    const { chain, fixture } = testChain;
    const safe = await safeAccount(chain, ownerAt(31));
    const call = { to: fixture.usdc, data: suffixedTransfer(recipientAt(4)) };
    await expect(safe.execute(call)).rejects.toThrow();
    const hash = await safe.execute(call, { safeTxGas: 200_000n });
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const [event] = parseEventLogs({ abi: SAFE_EXECUTION_ABI, logs: receipt.logs });
    expect(event.eventName).toBe('ExecutionFailure');
  });
});

/** An owner key holding the native coin: a delegated EOA pays its own gas. */
async function fundedOwner(index: number): Promise<HDAccount> {
  const owner = ownerAt(index);
  await testClient(testChain.chain).setBalance({ address: owner.address, value: parseEther('1') });
  return owner;
}

describe('EIP-7702 (an EOA delegated to ERC-7821 BatchDelegate)', () => {
  it('delegates with a type-4 transaction carrying the suffixed transfer', async () => {
    const { chain } = testChain;
    const account = await eip7702Account(chain, await fundedOwner(40));
    const hash = await proveTransfer(account, recipientAt(5));
    const transaction = await chain.publicClient.getTransaction({ hash });
    expect(transaction).toMatchObject({
      type: 'eip7702',
      from: account.address.toLowerCase(),
      to: account.address.toLowerCase(),
    });
    expect(await chain.publicClient.getCode({ address: account.address })).toBe(
      delegationCode(account.delegate),
    );
  });

  it('runs a batch in one plain transaction once delegated', async () => {
    const { chain, fixture } = testChain;
    const account = await eip7702Account(chain, await fundedOwner(41));
    await fundUsdc(account.address);
    const calls = [1, 2].map((n) => ({
      to: fixture.usdc,
      data: suffixedTransfer(recipientAt(10 + n)),
    }));
    await account.executeBatch(calls.slice(0, 1));
    const hash = await account.executeBatch(calls.slice(1));
    expect((await chain.publicClient.getTransaction({ hash })).type).toBe('eip1559');
    expect(await balanceOf(chain, fixture.usdc, recipientAt(12))).toBe(AMOUNT);
  });
});
