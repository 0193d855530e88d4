// Country codes are ISO 3166-1 alpha-2: checked locally (no request on a typo) and uppercased;
// a code the catalogue has no pools in is said, with the nearest ones it has.
// The code check and the country-filtered request are the domain's (src/units/catalogue-ids.ts),
// so the agent's tools use them too.
export { byCountry, countryCode } from '../units/catalogue-ids.js';

let regionNames: Intl.DisplayNames | undefined;

/** A country's English name from its ISO code ("DE" → "Germany"), or undefined when Node's ICU has none. */
export function countryName(code: string): string | undefined {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    return regionNames.of(code.toUpperCase()) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Lower case, accents off: "Côte" is found by "cote". */
const folded = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The countries that match what was typed, best first: the code itself ("de"), a name that starts
 * with it ("ger" → Germany), a code that starts with it, a word of the name that does ("kingdom" →
 * United Kingdom), then a name that holds it. Ties keep the list's order; nothing typed keeps all.
 */
export function matchCountries<T extends { code: string; name?: string | undefined }>(
  countries: readonly T[],
  typed: string | undefined,
): T[] {
  const term = folded((typed ?? '').trim());
  if (term === '') return [...countries];
  const rank = (c: T): number => {
    const code = c.code.toLowerCase();
    const name = folded(c.name ?? '');
    if (code === term) return 0;
    if (name.startsWith(term)) return 1;
    if (code.startsWith(term)) return 2;
    if (name.split(/[^a-z0-9]+/).some((w) => w.startsWith(term))) return 3;
    if (name.includes(term)) return 4;
    return -1;
  };
  return countries
    .map((c, i) => ({ c, i, r: rank(c) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.c);
}
