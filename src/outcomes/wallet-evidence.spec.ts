import { toEventSelector, toFunctionSelector } from 'viem';
import {
  entryPoint07Abi,
  entryPoint07Address,
  entryPoint08Abi,
  entryPoint08Address,
} from 'viem/account-abstraction';
import { ENTRY_POINT_ABI, ENTRY_POINTS } from './wallet-evidence';

const item = <T extends { type: string; name?: string }>(abi: readonly T[], name: string): T =>
  abi.find((entry) => entry.name === name)!;

describe("the EntryPoint the follower reads, written out (viem's module stays out of the boot)", () => {
  it.each([
    ['v0.7', entryPoint07Abi],
    ['v0.8', entryPoint08Abi],
  ])("has %s's handleOps and UserOperationEvent", (_version, abi) => {
    const handleOps = item(abi as readonly { type: string; name?: string }[], 'handleOps');
    const event = item(abi as readonly { type: string; name?: string }[], 'UserOperationEvent');
    expect(toFunctionSelector(item(ENTRY_POINT_ABI, 'handleOps') as never)).toBe(
      toFunctionSelector(handleOps as never),
    );
    expect(toEventSelector(item(ENTRY_POINT_ABI, 'UserOperationEvent') as never)).toBe(
      toEventSelector(event as never),
    );
  });

  it('knows the canonical addresses viem names', () => {
    expect([...ENTRY_POINTS]).toEqual(
      [entryPoint07Address, entryPoint08Address].map((a) => a.toLowerCase()),
    );
  });
});
