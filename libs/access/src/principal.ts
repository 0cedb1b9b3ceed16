/** What each role is for; a key holds exactly one. */
export const ROLES = ['consumer', 'provider', 'operator', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

/** A consumer key acts for one controller, and optionally only some of its models. */
export interface ConsumerScope {
  controller: string;
  models?: string[];
}

/** The authenticated caller. Its `name` is the actor stamped on every event it causes. */
export interface Principal {
  keyId: string;
  name: string;
  role: Role;
  scope: ConsumerScope | null;
}

export const inScope = (principal: Principal, consumer: { controller: string; model?: string }): boolean => {
  if (principal.role !== 'consumer') return true;
  if (!principal.scope || principal.scope.controller !== consumer.controller) return false;
  return !principal.scope.models || consumer.model === undefined || principal.scope.models.includes(consumer.model);
};
