import { ValidationTypes, type ValidatorOptions } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationStorage, type Constraint, type ConstraintArguments, type Target, type ValidationStorage as Storage } from './validation-storage';

interface CheckedRule {
  metadata: ValidationMetadata;
  constraints: Constraint[];
}

interface PropertyPlan {
  name: string;
  /** IsOptional, ValidateIf: the property is checked only when every one says so. */
  conditions: ValidationMetadata[];
  /** IsDefined: checked whatever the conditions say. */
  defined: CheckedRule[];
  rules: CheckedRule[];
  nested: ValidationMetadata[];
}

/** A class's rules, arranged once: null when a rule is of a kind this path does not mirror. */
interface Plan {
  known: Set<string>;
  properties: PropertyPlan[];
}

const MIRRORED = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.WHITELIST,
]);

const plans = new WeakMap<ValidationMetadata[], Plan | null>();

const planOf = (storage: Storage, metadatas: ValidationMetadata[]): Plan | null => {
  if (plans.has(metadatas)) return plans.get(metadatas)!;
  let plan: Plan | null = null;
  if (metadatas.every((metadata) => MIRRORED.has(metadata.type))) {
    const checked = (metadata: ValidationMetadata): CheckedRule => ({
      metadata,
      constraints: storage.getTargetValidatorConstraints(metadata.constraintCls as Target),
    });
    const grouped = storage.groupByPropertyName(metadatas);
    const properties = Object.entries(grouped).map(([name, rules]) => ({
      name,
      conditions: rules.filter((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION),
      defined: rules.filter((rule) => rule.type === ValidationTypes.IS_DEFINED).map(checked),
      rules: rules.filter((rule) => rule.type === ValidationTypes.CUSTOM_VALIDATION).map(checked),
      nested: rules.filter((rule) => rule.type === ValidationTypes.NESTED_VALIDATION),
    }));
    plan = { known: new Set(Object.keys(grouped)), properties };
  }
  plans.set(metadatas, plan);
  return plan;
};

const toArray = (value: unknown[] | Set<unknown> | Map<unknown, unknown>): unknown[] =>
  value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value);

const isCollection = (value: unknown): value is unknown[] | Set<unknown> | Map<unknown, unknown> =>
  Array.isArray(value) || value instanceof Set || value instanceof Map;

/** One verdict of a constraint: true, false, or null when it answers with a promise (not mirrored; class-validator's own test of one). */
const verdict = (result: unknown): boolean | null =>
  result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function' ? null : Boolean(result);

/** Every rule holds for `value` (each element, for a rule with `each` on a collection); null: cannot tell here. */
const rulesHold = (object: object, value: unknown, rules: CheckedRule[]): boolean | null => {
  for (const { metadata, constraints } of rules) {
    const args: ConstraintArguments = {
      targetName: object.constructor ? object.constructor.name : undefined,
      property: metadata.propertyName,
      object,
      value,
      constraints: metadata.constraints,
    };
    const eachOf = metadata.each && isCollection(value) ? toArray(value) : null;
    for (const constraint of constraints) {
      if (constraint.async) return null;
      if (eachOf === null) {
        const held = verdict(constraint.instance.validate(value, args));
        if (held !== true) return held;
        continue;
      }
      for (const each of eachOf) {
        const held = verdict(constraint.instance.validate(each, args));
        if (held !== true) return held;
      }
    }
  }
  return true;
};

/** ValidateNested as class-validator applies it: undefined passes, collections element by element, objects by their own class's rules. */
const nestedHolds = (storage: Storage, value: unknown, nested: ValidationMetadata[]): boolean | null => {
  if (value === undefined) return true;
  for (const metadata of nested) {
    if (isCollection(value)) {
      for (const each of toArray(value)) {
        const held = nestedHolds(storage, each, [metadata]);
        if (held !== true) return held;
      }
    } else if (value instanceof Object) {
      const schema = typeof metadata.target === 'string' ? metadata.target : metadata.target.name;
      const held = objectPasses(storage, value, schema);
      if (held !== true) return held;
    } else return false;
  }
  return true;
};

/** IsOptional, ValidateIf: whether the property is to be checked at all. */
const conditionsHold = (object: object, value: unknown, conditions: ValidationMetadata[]): boolean => {
  for (const condition of conditions) if (!(condition.constraints[0] as (object: object, value: unknown) => boolean)(object, value)) return false;
  return true;
};

const objectPasses = (storage: Storage, object: object, schema: string | undefined): boolean | null => {
  const metadatas = storage.getTargetValidationMetadatas(object.constructor as Target, schema as string, false, false);
  // forbidUnknownValues: an object no rule knows is refused.
  if (metadatas.length === 0) return false;
  const plan = planOf(storage, metadatas);
  if (plan === null) return null;
  // whitelist with forbidNonWhitelisted: an unknown field is refused.
  for (const key of Object.keys(object)) if (!plan.known.has(key)) return false;
  for (const property of plan.properties) {
    const value = (object as Record<string, unknown>)[property.name];
    if (value instanceof Promise) return null;
    if (!conditionsHold(object, value, property.conditions)) continue;
    // In class-validator's order, stopping at the first rule that does not hold.
    let held = rulesHold(object, value, property.defined);
    if (held === true) held = rulesHold(object, value, property.rules);
    if (held === true) held = nestedHolds(storage, value, property.nested);
    if (held !== true) return held;
  }
  return true;
};

/**
 * Whether class-validator, with the options given, would find nothing wrong with `object`,
 * answered without building its tree of errors, promises and messages: the same rules from
 * its storage, each constraint's own `validate`, the same order of conditions, whitelist,
 * unknown values and nested objects. It answers `true` only when class-validator would;
 * `false` when the object breaks a rule; `null` when it cannot tell (an option or a kind of
 * rule it does not mirror, an asynchronous constraint). Anything but `true` goes to
 * class-validator, which words every refusal: this path only lets valid requests skip it.
 */
export const passesValidation = (object: object, options: ValidatorOptions | undefined): boolean | null => {
  if (
    !options?.whitelist ||
    !options.forbidNonWhitelisted ||
    options.forbidUnknownValues === false ||
    options.groups !== undefined ||
    options.always ||
    options.strictGroups ||
    options.skipMissingProperties ||
    options.skipNullProperties ||
    options.skipUndefinedProperties
  ) {
    return null;
  }
  return objectPasses(validationStorage(), object, undefined);
};
