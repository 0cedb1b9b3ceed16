/** fast-check generators of tokens that are not live: ended, forged, borrowed from another node, or subtly altered. */
import fc from 'fast-check';
import type { FuzzTargets } from './hostile-requests';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** A token that is NOT a live one: ended, forged, borrowed from another node, or subtly altered. */
export const wrongToken = (targets: FuzzTargets): fc.Arbitrary<string> => {
  const live = new Set(targets.liveTokens.map(({ token }) => token));
  const nodes = [...targets.heldNodes, ...targets.reservedNodes.map(({ nodeId }) => nodeId), 'fz-ghost'];
  const entropy = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 16, maxLength: 64 });
  const livePick = fc.constantFrom(...targets.liveTokens);
  return fc
    .oneof(
      fc.constantFrom(...targets.endedTokens),
      fc.tuple(fc.constantFrom(...nodes), fc.integer({ min: 1, max: 6 }), entropy).map(([nodeId, epoch, random]) => `${b64(nodeId)}.${epoch}.${random}`),
      fc.tuple(livePick, fc.constantFrom(...nodes)).map(([{ token }, other]) => `${b64(other)}.${token.split('.').slice(1).join('.')}`),
      livePick.map(({ token }) => `${token}x`),
      livePick.map(({ token }) => token.slice(0, -1)),
      livePick.map(({ token }) => token.replace(/\.(\d+)\./, (_, epoch: string) => `.${Number(epoch) + 1}.`)),
      livePick.map(({ token }) => token.replace(/\.(\d+)\./, '.0.')),
      livePick.map(({ token }) => token.replace(/\.(\d+)\./, '.99999999999999999999.')),
      livePick.map(({ token }) => token.toUpperCase()),
      livePick.map(({ token }) => encodeURIComponent(`${token}/../${token}`)),
      fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
      fc.constantFrom('..', '%2e%2e', '%FF', 'x'.repeat(600), `${b64('../etc')}.1.AAAAAAAAAAAAAAAAAAAA`),
    )
    .filter((token) => token !== '' && !live.has(token) && !live.has(safeDecode(token)));
};

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};
