import type { ActionParameter } from '../contract/action.types';
import { blinkField, blinkParameters } from './blink-parameters';

const param = (overrides: Partial<ActionParameter>): ActionParameter => ({
  name: 'x',
  label: 'X',
  type: 'text',
  ...overrides,
});
const field = (overrides: Partial<ActionParameter>): unknown => {
  const mapped = blinkField(param(overrides));
  return mapped.ok ? mapped.parameter : mapped.problem;
};

describe('blinkField (declaration → Actions spec 2.4 field)', () => {
  it.each([
    ['string', 'text'],
    ['text', 'text'],
    ['textarea', 'textarea'],
    ['email', 'email'],
    ['url', 'url'],
    ['datetime', 'datetime-local'],
  ] as const)('shows %s as %s, with required and pattern', (type, shown) => {
    expect(field({ type, required: true, pattern: '^a+$' })).toEqual({
      type: shown,
      name: 'x',
      label: 'X',
      required: true,
      ...(shown !== 'datetime-local' && { pattern: '^a+$' }),
    });
  });

  it('keeps a number’s min and max, and drops text bounds beyond 2^53', () => {
    expect(field({ type: 'number', min: 0, max: 50 })).toMatchObject({ min: 0, max: 50 });
    expect(field({ type: 'number', min: '1e400' })).not.toHaveProperty('min');
  });

  it('shows select and radio with text option values and the default selected', () => {
    const options = [
      { label: 'One', value: 1 },
      { label: 'Two', value: 2 },
    ];
    expect(field({ type: 'radio', options, value: 2 })).toEqual({
      type: 'radio',
      name: 'x',
      label: 'X',
      options: [
        { label: 'One', value: '1' },
        { label: 'Two', value: '2', selected: true },
      ],
    });
  });

  it('shows a boolean as one checkbox and addresses, integers and bytes as patterned text', () => {
    expect(field({ type: 'boolean' })).toMatchObject({
      type: 'checkbox',
      options: [{ label: 'X', value: 'true' }],
    });
    const patterns = (['address', 'uint256', 'int8', 'bytes32', 'bytes'] as const).map(
      (type) => (field({ type }) as { pattern: string }).pattern,
    );
    expect(patterns).toEqual([
      '^0x[0-9a-fA-F]{40}$',
      '^[0-9]+$',
      '^-?[0-9]+$',
      '^0x[0-9a-fA-F]{64}$',
      '^0x([0-9a-fA-F]{2})*$',
    ]);
  });

  it('leaves a fixed parameter out, and refuses files and images with the reason', () => {
    expect(field({ type: 'address', fixed: true, value: 'sender' })).toBeUndefined();
    expect(field({ type: 'image' })).toBe('x (image): an Actions POST carries text only');
    expect(blinkParameters([param({ name: 'a' }), param({ name: 'f', type: 'file' })])).toEqual({
      problem: 'f (file): an Actions POST carries text only',
    });
  });
});
