import { readAddress } from './address';

describe('readAddress', () => {
  const checksummed = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

  it('answers the checksum form of one-case hex and of a matching checksum, the same each time', () => {
    for (let round = 0; round < 2; round++) {
      expect(readAddress(checksummed.toLowerCase())).toBe(checksummed);
      expect(readAddress(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed);
      expect(readAddress(` ${checksummed} `)).toBe(checksummed);
    }
  });

  it('refuses a mixed case that breaks the checksum, and what is no address, each time', () => {
    const broken = checksummed.replace('Cc', 'cC');
    for (let round = 0; round < 2; round++) {
      expect(readAddress(broken)).toBeUndefined();
      expect(readAddress('0x1234')).toBeUndefined();
      expect(readAddress('')).toBeUndefined();
    }
  });

  it('keeps answering right past the bound of what it remembers', () => {
    // Decimal digits only: their checksum form is themselves.
    const many = Array.from({ length: 10_050 }, (_, i) => `0x${String(i).padStart(40, '0')}`);
    for (const address of many) expect(readAddress(address)).toBe(address);
    expect(readAddress(checksummed.toLowerCase())).toBe(checksummed);
    expect(readAddress(many[0])).toBe(many[0]);
  });
});
