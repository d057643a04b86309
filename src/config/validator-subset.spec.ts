import * as library from 'class-validator';
import * as subset from './validator-subset';

/** Every name the subset takes from a file of class-validator's must be the library's own. */
describe('validator-subset: class-validator without its entry point', () => {
  const names = Object.keys(subset).filter((name) => name !== 'validateSync');

  it.each(names)('%s is the library’s own', (name) => {
    expect(subset[name as keyof typeof subset]).toBeDefined();
    expect(subset[name as keyof typeof subset]).toBe(library[name as keyof typeof library]);
  });

  class Probe {
    @subset.IsOptional()
    @subset.IsInt()
    @subset.Min(1)
    @subset.Max(10)
    count?: unknown;

    @subset.IsString()
    @subset.MinLength(2)
    @subset.Matches(/^[a-z]+$/)
    name?: unknown;

    @subset.IsIn(['a', 'b'])
    kind?: unknown;
  }

  const probe = (values: Partial<Probe>): Probe => Object.assign(new Probe(), values);
  const cases: [string, Partial<Probe>][] = [
    ['valid', { count: 3, name: 'ok', kind: 'a' }],
    ['every rule refused', { count: 11.5, name: 'X', kind: 'c' }],
    ['missing values', {}],
  ];

  it.each(cases)('validateSync gives the library’s errors: %s', (_, values) => {
    for (const options of [undefined, { stopAtFirstError: true, forbidUnknownValues: false }]) {
      const ours = subset.validateSync(probe(values), options);
      expect(ours).toEqual(library.validateSync(probe(values), options));
    }
  });

  it('finds errors at all (the comparison above is not of two empty lists)', () => {
    expect(subset.validateSync(probe({ count: 0, name: 'X', kind: 'c' }))).toHaveLength(3);
  });
});
