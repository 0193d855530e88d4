// Choosing units on the client side, after paging: the API filters by status, pool and expiry,
// but not by description, so a customer tag kept in `description` is matched here (any case).
import type { Unit } from './types.js';

/** True for a unit whose description contains `text`, ignoring case; every unit when `text` is undefined. */
export function descriptionMatcher(text: string | undefined): (u: Unit) => boolean {
  if (text === undefined) return () => true;
  const needle = text.toLocaleLowerCase();
  return (u) => typeof u.description === 'string' && u.description.toLocaleLowerCase().includes(needle);
}

/** Seconds a unit has left: the server's `expiresIn` (recomputed on every read), else `expiresAt` against `now`. */
export function secondsLeft(u: Unit, now: number): number | undefined {
  if (typeof u.expiresIn === 'number') return u.expiresIn;
  const t = typeof u.expiresAt === 'string' ? Date.parse(u.expiresAt) : Number.NaN;
  return Number.isFinite(t) ? Math.round((t - now) / 1000) : undefined;
}

/** True for an active unit whose remaining time is within `hours` (the server's answer, checked again). */
export function expiringWithin(hours: number, now: number): (u: Unit) => boolean {
  return (u) => {
    if (u.status !== undefined && u.status !== 'ACTIVE') return false;
    const left = secondsLeft(u, now);
    return left !== undefined && left > 0 && left <= hours * 3600;
  };
}
