/** No request body the API takes is nested more than a few levels; 32 leaves room to grow. */
export const MAX_JSON_DEPTH = 32;

/**
 * Walks a parsed body without recursion. Too deep a body is refused here because the
 * validators (class-transformer) recurse and would overflow the stack, a 500. Keys that
 * address prototypes are refused because the DTO mapping silently drops them, and
 * unknown fields must be refused, not ignored.
 */
export const jsonShapeProblem = (body: unknown): string | null => {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 1, path: 'body' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `the request body is nested more than ${MAX_JSON_DEPTH} levels deep`;
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, depth: depth + 1, path: `${path}[${index}]` }));
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') return `${path}.${key}: this field name is not allowed`;
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: `${path}.${key}` });
    }
  }
  return null;
};
