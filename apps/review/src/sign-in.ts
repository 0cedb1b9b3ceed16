/**
 * Signing in to the review page with an API key (kept in the browser's storage, see api.ts),
 * and out again: the page shows the sign-in form or the app accordingly.
 */
import { ApiError, explain, forgetKey, get, storeKey } from './api';
import { byId } from './dom';

/** Stores `key` if the ledger accepts it for the audit log; else forgets it and says why on the form. */
export const signIn = async (key: string): Promise<boolean> => {
  storeKey(key);
  try {
    await get('/v1/audit/events?limit=1');
    return true;
  } catch (error) {
    forgetKey();
    byId('sign-in-error').textContent = error instanceof ApiError ? error.message : explain(0, 'error', String(error));
    return false;
  }
};

export const showApp = (signedIn: boolean): void => {
  byId('sign-in').hidden = signedIn;
  byId('app').hidden = !signedIn;
  byId('sign-out').hidden = !signedIn;
  byId('who').textContent = signedIn ? 'Signed in (read-only review: nothing here changes the ledger)' : '';
};

/** Wires the sign-in form and the sign-out button: `signedIn` once a key is accepted, `signedOut` when the user leaves. */
export const wireSignIn = (signedIn: () => void, signedOut: () => void): void => {
  byId<HTMLFormElement>('sign-in-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>('api-key');
    byId('sign-in-error').textContent = '';
    if (await signIn(input.value.trim())) {
      input.value = '';
      showApp(true);
      signedIn();
    }
  });
  byId('sign-out').addEventListener('click', () => {
    forgetKey();
    signedOut();
    showApp(false);
  });
};
