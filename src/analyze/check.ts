/** Small checks shared by the analyze module's public entry points (each failure is a one-line PatienceError). */

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A whole number 0 .. 2^53-1. */
export const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export { shown } from '../errors';
