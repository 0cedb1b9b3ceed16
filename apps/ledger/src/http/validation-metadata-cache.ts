import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationStorage, type Target, type ValidationStorage } from './validation-storage';

type Grouped = Record<string, ValidationMetadata[]>;

const FLAGS = ['', 's', 'a', 'as'];

const CACHED = Symbol.for('provisioning-ledger.validation-metadata-cache');

/**
 * class-validator 0.14 works out a DTO's rules afresh on every validation: it filters the
 * class's own rules, then walks every class it knows (an `instanceof` each) for inherited
 * ones, then groups the result by property; at 64 clients that was about 2% of the main
 * thread (`getTargetValidationMetadatas` alone). The rules are fixed once the DTO classes
 * are loaded, so the answers are kept per class and options, and dropped whenever a rule is
 * added (a class loaded later). The executor only reads what it is given, so the same
 * arrays may be handed out again. Installed once per process, on class-validator's global
 * storage.
 */
export const cacheValidationMetadata = (): void => {
  const storage = validationStorage() as ValidationStorage & { [CACHED]?: true };
  if (storage[CACHED]) return;
  storage[CACHED] = true;
  let byTarget = new Map<Target, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Grouped>();
  const compute = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    byTarget = new Map();
    grouped = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // The pipe never passes a schema or groups: its key is one of four short strings, built without a template.
    const key =
      schema === undefined && groups === undefined
        ? FLAGS[(always ? 2 : 0) + (strictGroups ? 1 : 0)]
        : `${schema}|${always}|${strictGroups}|${groups?.join(',')}`;
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = new Map()));
    let metadata = forTarget.get(key);
    if (!metadata) forTarget.set(key, (metadata = compute(target, schema, always, strictGroups, groups)));
    return metadata;
  };
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
};
