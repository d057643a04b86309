import { getMetadataStorage, type MetadataStorage } from '../../config/validator-subset';

type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;
/** A class whose rules are looked up, as class-validator names it. */
type Target = Parameters<MetadataStorage['getTargetValidationMetadatas']>[0];

const INSTALLED = Symbol.for('dynamic-actions.validation-rules-cache');
const PLAIN = 'undefined\u0000false\u0000false';

/**
 * class-validator finds a class's rules anew on every `validateSync`: it filters them, tests the
 * class against every other class that has rules (so each request costs more as actions are
 * added) and groups them by property. Rules are added by decorators when classes are defined, so
 * the answer for a class changes only when a rule is added: this keeps each answer until then,
 * in class-validator's own storage, shared by every copy of the kit. Lookups by group are left
 * as they are (the kit validates without groups).
 */
export function cacheValidationRules(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { [INSTALLED]?: true };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;

  let rules = new Map<string, Map<Target, Rules>>();
  let grouped = new WeakMap<Rules, Grouped>();
  const forget = (): void => {
    rules = new Map();
    grouped = new WeakMap();
  };
  // The only way a rule is added: addValidationSchema adds each of its rules through it too.
  const addRule = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata): void => {
    forget();
    addRule(metadata);
  };

  const find = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups): Rules => {
    if (groups !== undefined && groups.length > 0)
      return find(target, schema, always, strictGroups, groups);
    // The kit's own lookup (no schema, no flags) every request makes: no key to build for it.
    const key =
      schema === undefined && always === false && strictGroups === false
        ? PLAIN
        : `${schema}\u0000${always}\u0000${strictGroups}`;
    let byClass = rules.get(key);
    if (!byClass) rules.set(key, (byClass = new Map<Target, Rules>()));
    let found = byClass.get(target);
    if (!found) byClass.set(target, (found = find(target, schema, always, strictGroups, groups)));
    return found;
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadata: Rules): Grouped => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
}
