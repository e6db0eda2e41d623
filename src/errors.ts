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

export function fail(message: string): never {
  throw new PatienceError(message);
}
