/**
 * Every error the library raises on purpose is a PatienceError: its message is one line that names
 * what is wrong, fit to print to a user as it is. Anything else escaping is a bug.
 */
export class PatienceError extends Error {
  override readonly name = 'PatienceError';
  constructor(message: string) {
    super(message);
  }
}

/**
 * A value as an error message shows it: text quoted (so "7" is not taken for 7), numbers as they are
 * (NaN and Infinity too, which JSON would print as null), anything else as JSON where it can be.
 */
export function quoted(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint' || v === undefined || typeof v === 'function' || typeof v === 'symbol') return String(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export function fail(message: string): never {
  throw new PatienceError(message);
}
