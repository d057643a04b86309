import { createSiweMessage } from 'viem/siwe';
import { parseStrict } from './siwe-message';

const MESSAGE = createSiweMessage({
  domain: 'actions.test',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  statement: 'Sign in to the dynamic actions service',
  uri: 'http://actions.test',
  version: '1',
  chainId: 43113,
  nonce: 'abcdefgh12345678',
  issuedAt: new Date('2026-01-01T00:00:00.000Z'),
  expirationTime: new Date('2026-01-01T00:10:00.000Z'),
});

const invalid = (message: string): string | undefined => {
  const read = parseStrict(message);
  return 'invalid' in read ? read.invalid : undefined;
};

describe('parseStrict: the message is exactly the one its fields make', () => {
  it('reads a message viem wrote, every field', () => {
    expect(parseStrict(MESSAGE)).toMatchObject({
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 43113,
      nonce: 'abcdefgh12345678',
      issuedAt: new Date('2026-01-01T00:00:00.000Z'),
    });
  });

  it('refuses a malformed Issued At (viem reads it as an Invalid Date that passes every time check)', () => {
    const bad = MESSAGE.replace(/Issued At: .*/, 'Issued At: yesterday-ish');
    expect(invalid(bad)).toMatch(/malformed/);
    expect(invalid(MESSAGE.replace(/Expiration Time: .*/, 'Expiration Time: never'))).toMatch(
      /malformed/,
    );
  });

  it('refuses fields out of order (viem drops them) and lines it does not read', () => {
    const lines = MESSAGE.split('\n');
    const nonce = lines.findIndex((line) => line.startsWith('Nonce: '));
    const chain = lines.findIndex((line) => line.startsWith('Chain ID: '));
    [lines[nonce], lines[chain]] = [lines[chain], lines[nonce]];
    expect(invalid(lines.join('\n'))).toMatch(/out of order|exact form/);
    // An expiry the signer saw, before the URI: viem drops it, and the session would never expire.
    const rest = MESSAGE.split('\n').filter((line) => !line.startsWith('Expiration Time'));
    const uri = rest.findIndex((line) => line.startsWith('URI: '));
    rest.splice(uri, 0, 'Expiration Time: 2026-01-01T00:10:00.000Z');
    expect(parseStrict(MESSAGE)).toHaveProperty('expirationTime');
    expect(invalid(rest.join('\n'))).toMatch(/exact form \(line \d+\)/);
    expect(invalid(`${MESSAGE}\nFavourite colour: blue`)).toMatch(/exact form/);
  });

  it('reads an address in lower case as its checksum; refuses a wrong checksum', () => {
    const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    expect(parseStrict(MESSAGE.replace(address, address.toLowerCase()))).toMatchObject({ address });
    const wrong = address.replace('Fd6e', 'fD6e');
    expect(invalid(MESSAGE.replace(address, wrong))).toBeDefined();
  });

  it('refuses a time without milliseconds, and another version', () => {
    expect(invalid(MESSAGE.replace('00:00:00.000Z', '00:00:00Z'))).toMatch(/exact form/);
    expect(invalid(MESSAGE.replace('Version: 1', 'Version: 2'))).toBeDefined();
  });
});
