/**
 * The part of class-validator the service uses, each from the library's own file. Its entry point
 * requires every one of its ~100 decorators and, with them, validator.js and libphonenumber-js:
 * some 320 modules, a tenth of the boot (docs/performance.md), for the 20 names below. Every
 * production file imports class-validator from here; `validator-subset.spec.ts` checks each name
 * is the library's own (the same function, or the same rules and messages), so an upgrade that
 * moves a file fails there, not in production. A team's action may import the library itself:
 * its decorators share the one metadata store (class-validator keeps it on `global`).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the library's own files, by path */
import type * as ClassValidator from 'class-validator';

export type {
  MetadataStorage,
  ValidationArguments,
  ValidationError,
  ValidationOptions,
  ValidatorConstraintInterface,
  ValidatorOptions,
} from 'class-validator';

type Library = typeof ClassValidator;
const from = <K extends keyof Library>(file: string, name: K): Library[K] =>
  (require(`class-validator/cjs/${file}`) as Library)[name];

/** class-validator's `IsBoolean`, from its own file. */
export const IsBoolean = from('decorator/typechecker/IsBoolean', 'IsBoolean');
/** class-validator's `IsDefined`, from its own file. */
export const IsDefined = from('decorator/common/IsDefined', 'IsDefined');
/** class-validator's `IsIn`, from its own file. */
export const IsIn = from('decorator/common/IsIn', 'IsIn');
/** class-validator's `IsInt`, from its own file. */
export const IsInt = from('decorator/typechecker/IsInt', 'IsInt');
/** class-validator's `IsNumber`, from its own file. */
export const IsNumber = from('decorator/typechecker/IsNumber', 'IsNumber');
/** class-validator's `IsOptional`, from its own file. */
export const IsOptional = from('decorator/common/IsOptional', 'IsOptional');
/** class-validator's `IsString`, from its own file. */
export const IsString = from('decorator/typechecker/IsString', 'IsString');
/** class-validator's `IsUrl`, from its own file. */
export const IsUrl = from('decorator/string/IsUrl', 'IsUrl');
/** class-validator's `isURL`, from its own file. */
export const isURL = from('decorator/string/IsUrl', 'isURL');
/** class-validator's `isEmail`, from its own file. */
export const isEmail = from('decorator/string/IsEmail', 'isEmail');
/** class-validator's `Matches`, from its own file. */
export const Matches = from('decorator/string/Matches', 'Matches');
/** class-validator's `Max`, from its own file. */
export const Max = from('decorator/number/Max', 'Max');
/** class-validator's `MaxLength`, from its own file. */
export const MaxLength = from('decorator/string/MaxLength', 'MaxLength');
/** class-validator's `Min`, from its own file. */
export const Min = from('decorator/number/Min', 'Min');
/** class-validator's `MinLength`, from its own file. */
export const MinLength = from('decorator/string/MinLength', 'MinLength');
/** class-validator's `ValidateBy`, from its own file. */
export const ValidateBy = from('decorator/common/ValidateBy', 'ValidateBy');
/** class-validator's `ValidateIf`, from its own file. */
export const ValidateIf = from('decorator/common/ValidateIf', 'ValidateIf');
/** class-validator's `ValidationTypes`, from its own file. */
export const ValidationTypes = from('validation/ValidationTypes', 'ValidationTypes');
/** class-validator's `getMetadataStorage`, from its own file. */
export const getMetadataStorage = from('metadata/MetadataStorage', 'getMetadataStorage');

const getFromContainer = from('container', 'getFromContainer');
const Validator = from('validation/Validator', 'Validator');

/** class-validator's `validateSync(object, options)`: what its entry point runs, in one line. */
export const validateSync = (
  object: object,
  options?: ClassValidator.ValidatorOptions,
): ClassValidator.ValidationError[] => getFromContainer(Validator).validateSync(object, options);
