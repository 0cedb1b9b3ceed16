import { resolve } from 'node:path';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Who a variable is for: operators find it in docs/configuration.md, tests in docs/development.md. */
export type Audience = 'operator' | 'test' | 'tuning';

/**
 * One environment variable: how it is read and how it is documented, in one place, so
 * the reference (docs/configuration.md, generated from these) cannot say other than the code.
 */
export interface Setting<T> {
  readonly name: string;
  readonly audience: Audience;
  /** The heading it is listed under in the reference. */
  readonly group: string;
  /** The default as the reference shows it. */
  readonly shown: string;
  /** Why an operator (or a test) would set it, and what it does: at most two lines. */
  readonly doc: string;
  read(env: NodeJS.ProcessEnv): T;
}

type Described = Pick<Setting<unknown>, 'audience' | 'group' | 'doc'>;

const raw = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
};

export const integer = (name: string, fallback: number, min: number, max: number, described: Described): Setting<number> => ({
  name,
  ...described,
  shown: String(fallback),
  read(env) {
    const given = raw(env, name);
    if (given === undefined) return fallback;
    const value = Number(given);
    if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${given}"`);
    return value;
  },
});

/** An integer test hook: absent means the behaviour the ledger always has (null). */
export const optionalInteger = (name: string, min: number, max: number, described: Described): Setting<number | null> => ({
  name,
  ...described,
  shown: 'unset',
  read(env) {
    return raw(env, name) === undefined ? null : integer(name, 0, min, max, described).read(env);
  },
});

export const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[], described: Described): Setting<T> => ({
  name,
  ...described,
  shown: fallback,
  read(env) {
    const given = raw(env, name);
    if (given === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(given)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${given}"`);
    return given as T;
  },
});

export const onOff = (name: string, fallback: 'on' | 'off', described: Described): Setting<boolean> => {
  const choice = oneOf(name, fallback, ['on', 'off'], described);
  return { ...choice, read: (env) => choice.read(env) === 'on' };
};

export const text = (name: string, fallback: string, described: Described): Setting<string> => ({
  name,
  ...described,
  shown: fallback,
  read: (env) => raw(env, name) ?? fallback,
});

export const optionalText = (name: string, described: Described): Setting<string | null> => ({
  name,
  ...described,
  shown: 'none',
  read: (env) => raw(env, name) ?? null,
});

/** A path, resolved against the working directory; its default may be another setting's. */
export const path = (name: string, shown: string, fallback: (env: NodeJS.ProcessEnv) => string, described: Described): Setting<string> => ({
  name,
  ...described,
  shown,
  read: (env) => resolve(raw(env, name) ?? fallback(env)),
});
