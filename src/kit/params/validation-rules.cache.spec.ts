import { getMetadataStorage, IsInt, Max, validateSync } from 'class-validator';
import { cacheValidationRules } from './validation-rules.cache';

const OPTIONS = { stopAtFirstError: true, forbidUnknownValues: false };
const failures = (object: object): string[] =>
  validateSync(object, OPTIONS).map((error) => Object.values(error.constraints ?? {})[0]);

describe('cacheValidationRules', () => {
  const storage = getMetadataStorage();
  const lookup = jest.spyOn(storage, 'getTargetValidationMetadatas');
  cacheValidationRules(storage);
  cacheValidationRules(storage); // a second install changes nothing

  class First {
    @IsInt()
    a: unknown;
  }

  it('looks a class’s rules up once, and answers as before', () => {
    lookup.mockClear();
    for (const a of [1, 'x', 2, 'y']) {
      expect(failures(Object.assign(new First(), { a }))).toEqual(
        typeof a === 'number' ? [] : ['a must be an integer number'],
      );
    }
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('sees rules added later: a new class, and a new rule on a class it already looked up', () => {
    expect(failures(Object.assign(new First(), { a: 5 }))).toEqual([]);
    class Later {
      @Max(3)
      b: unknown;
    }
    expect(failures(Object.assign(new Later(), { b: 4 }))).toEqual([
      'b must not be greater than 3',
    ]);
    Max(3)(First.prototype, 'a');
    expect(failures(Object.assign(new First(), { a: 5 }))).toEqual([
      'a must not be greater than 3',
    ]);
  });

  it('leaves lookups by group to class-validator', () => {
    class Grouped {
      @IsInt({ groups: ['strict'] })
      c: unknown;
    }
    const invalid = Object.assign(new Grouped(), { c: 'x' });
    expect(validateSync(invalid, { ...OPTIONS, groups: ['strict'] })).toHaveLength(1);
    expect(validateSync(invalid, { ...OPTIONS, groups: ['other'] })).toHaveLength(0);
  });
});
