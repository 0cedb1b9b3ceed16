import type { NameRule } from './name-rule';

/**
 * Juju's names for a model and a controller (its names package: IsValidModelName,
 * IsValidControllerName): lowercase letters, digits and hyphens, not starting with a
 * hyphen, at most 128 characters. Other orchestrators that name their tenants so fit.
 */
const JUJU_NAME = /^[a-z0-9][a-z0-9-]*$/;
const SAYS = 'lowercase letters, digits and hyphens, not starting with a hyphen (as Juju names them)';

export const MODEL_NAME: NameRule = { what: 'a model name', pattern: JUJU_NAME, maxLength: 128, says: SAYS };
export const CONTROLLER_NAME: NameRule = { what: 'a controller name', pattern: JUJU_NAME, maxLength: 128, says: SAYS };
