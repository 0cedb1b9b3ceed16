import { getMetadataStorage, type ValidationArguments } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** A DTO class, as class-validator keys its rules. */
export type Target = abstract new (...args: never[]) => unknown;

export type TargetMetadatas = (target: Target, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => ValidationMetadata[];

/** What class-validator passes a constraint: its arguments, whose `targetName` it leaves undefined for an object without a constructor. */
export type ConstraintArguments = Omit<ValidationArguments, 'targetName'> & { targetName: string | undefined };

/** A constraint class's validator, as class-validator's storage keeps it. */
export interface Constraint {
  instance: { validate(value: unknown, args?: ConstraintArguments): unknown };
  async: boolean;
}

/**
 * The part of class-validator's global metadata storage this app reads (and the metadata
 * cache wraps): its typings keep these methods to the library.
 */
export interface ValidationStorage {
  getTargetValidationMetadatas: TargetMetadatas;
  groupByPropertyName(metadata: ValidationMetadata[]): Record<string, ValidationMetadata[]>;
  addValidationMetadata(metadata: ValidationMetadata): void;
  getTargetValidatorConstraints(target: Target): Constraint[];
}

export const validationStorage = (): ValidationStorage => getMetadataStorage();
