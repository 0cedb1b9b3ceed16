/**
 * The documented HTTP API, with the key from this tab's session storage. The key is sent
 * only as an Authorization header: never in a URL, so never in a log or a shared link.
 */
const KEY = 'ledger-review-key';

export const storedKey = (): string | null => sessionStorage.getItem(KEY);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY);

/** A refused or failed request, in words a reviewer can act on. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const explain = (status: number, code: string, message: string): string => {
  if (status === 401) return `401 Unauthorized: the ledger did not accept this API key (${message}). Check the key and sign in again.`;
  if (status === 403) return `403 Forbidden: this key's role may not read this (${message}). The review needs an auditor or operator key.`;
  if (status === 404) return `Not found: ${message}`;
  if (status === 400) return `The ledger refused the question: ${message}`;
  if (status === 429) return `Too many requests for this key: ${message}`;
  if (status === 0) return `The ledger could not be reached: ${message}`;
  return `The ledger answered ${status} ${code}: ${message}`;
};

export const headers = (): Record<string, string> => {
  const key = storedKey();
  return key ? { authorization: `Bearer ${key}`, accept: 'application/json' } : { accept: 'application/json' };
};

export const get = async <T>(path: string, signal?: AbortSignal): Promise<T> => {
  let response: Response;
  try {
    response = await fetch(path, { headers: headers(), signal, credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'unreachable', (error as Error).message);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const code = typeof body?.code === 'string' ? body.code : String(response.status);
    const message = typeof body?.message === 'string' ? body.message : response.statusText;
    throw new ApiError(response.status, code, explain(response.status, code, message));
  }
  return body as T;
};

export const query = (params: Record<string, string | number | undefined | null>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};
