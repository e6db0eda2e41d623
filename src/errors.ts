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
 * A value as a message shows it, on one line and never throwing: text quoted (so "7" is not taken for
 * 7) and cut short, numbers as they are (NaN and Infinity too, which JSON would print as null),
 * objects by kind.
 */
export function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object' && v !== null) return 'an object';
  return String(v);
}

/**
 * An object or array as JSON, cut short, for messages that quote what they were given (a move, a
 * place); anything else, or what JSON cannot write (a BigInt inside, a cycle), as `shown` has it.
 */
export function shownJson(v: unknown): string {
  if (typeof v !== 'object' || v === null) return shown(v);
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch {
    text = undefined;
  }
  text ??= shown(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function fail(message: string): never {
  throw new PatienceError(message);
}
