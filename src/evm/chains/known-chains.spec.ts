import { KNOWN_CHAINS, knownChain, viemDefinition } from './known-chains';

describe('known chains', () => {
  it.each(KNOWN_CHAINS.filter((chain) => chain.viemName !== undefined))(
    "$displayName ($id) is viem's $viemName, with the same id",
    (chain) => {
      expect(viemDefinition(chain)?.id).toBe(chain.id);
    },
  );

  it('has no viem definition for a chain viem does not know, nor for an unknown id', () => {
    expect(viemDefinition(knownChain(3278))).toBeUndefined();
    expect(viemDefinition(knownChain(999))).toBeUndefined();
  });
});
