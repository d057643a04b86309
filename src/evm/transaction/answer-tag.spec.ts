import { Attribution } from 'ox/erc8021';
import { encodeFunctionData, erc20Abi, parseAbi } from 'viem';
import { holdsCall, newAnswerTag, tagsIn, withTag } from './answer-tag';

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const transfer = encodeFunctionData({
  abi: erc20Abi,
  functionName: 'transfer',
  args: [RECIPIENT, 10n ** 6n],
});
const EXECUTE = parseAbi(['function execute(address to, uint256 value, bytes data)']);

describe('the answer tag (ERC-8021 schema 0, the intent id its one code)', () => {
  it('is appended to the call, which keeps its arguments, and read back', () => {
    const tag = newAnswerTag();
    const tagged = withTag(transfer, tag)!;
    expect(tagged.startsWith(transfer)).toBe(true);
    expect(tagged.slice(transfer.length)).toBe(Attribution.toDataSuffix({ codes: [tag] }).slice(2));
    expect(Attribution.fromData(tagged)).toMatchObject({ codes: [tag] });
    expect(tagsIn(tagged)).toEqual([tag]);
  });

  it('leaves a call without calldata (the coin sent to an address) and an untagged answer alone', () => {
    expect(withTag('0x', newAnswerTag())).toBe('0x');
    expect(withTag(undefined, newAnswerTag())).toBeUndefined();
    expect(withTag(transfer, undefined)).toBe(transfer);
    expect(tagsIn(transfer)).toEqual([]);
  });

  it('is found inside a wallet that embeds the call, and beside a suffix the wallet appends', () => {
    const tag = newAnswerTag();
    const tagged = withTag(transfer, tag)!;
    const wrapped = encodeFunctionData({
      abi: EXECUTE,
      functionName: 'execute',
      args: [RECIPIENT, 0n, tagged],
    });
    expect(tagsIn(wrapped)).toEqual([tag]);
    expect(holdsCall(wrapped, tagged)).toBe(true);
    const walletSuffix = Attribution.toDataSuffix({ codes: ['somewallet'] }).slice(2);
    expect(tagsIn(`${wrapped}${walletSuffix}`)).toEqual([tag, 'somewallet']);
  });

  it('tells two answers with the same call apart', () => {
    const [a, b] = [withTag(transfer, newAnswerTag())!, withTag(transfer, newAnswerTag())!];
    expect(a).not.toBe(b);
    expect(holdsCall(a, b)).toBe(false);
    expect(holdsCall(a, transfer)).toBe(true);
  });

  it('reads nothing from a marker with no valid suffix before it', () => {
    expect(tagsIn(`0x${'80218021'.repeat(4)}`)).toEqual([]);
    expect(tagsIn(`0xff${'80218021'.repeat(4)}`)).toEqual([]);
  });
});
