import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** The roles an operation allows, carried in the document as its `x-roles` extension (none: anyone). */
export const rolesOf = (operation: OperationObject): string[] => {
  const roles: unknown = 'x-roles' in operation ? operation['x-roles'] : undefined;
  return Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [];
};

/** Writes the roles an operation allows as its `x-roles` extension, which Nest's typings do not name. */
export const setRoles = (operation: OperationObject, roles: string[]): void => {
  Object.assign(operation, { 'x-roles': roles });
};
