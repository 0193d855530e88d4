// Choosing units on the client side, after paging: the API filters by status, pool and expiry,
// but not by description, so a customer tag kept in `description` is matched here (any case).
import type { Unit } from './types.js';

/** True for a unit whose description contains `text`, ignoring case; every unit when `text` is undefined. */
export function descriptionMatcher(text: string | undefined): (u: Unit) => boolean {
  if (text === undefined) return () => true;
  const needle = text.toLocaleLowerCase();
  return (u) => typeof u.description === 'string' && u.description.toLocaleLowerCase().includes(needle);
}

/** The units of a (streamed) list that `keep` accepts, in order; pages are read only as items are wanted. */
export async function* whereUnits(units: AsyncIterable<Unit>, keep: (u: Unit) => boolean): AsyncGenerator<Unit> {
  for await (const u of units) if (keep(u)) yield u;
}
