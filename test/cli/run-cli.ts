import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The built CLI, run as a user runs it; `npm test` builds it first (tsup). */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A CLI that exits without reading its input closes the pipe: not the test's concern.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Bad input: exit 2, nothing on stdout, exactly one line `patience: ...` on stderr, no stack trace. */
export function expectUserError(result: CliResult, message: RegExp | string): void {
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^patience: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+|internal error/);
  if (typeof message === 'string') expect(result.stderr).toBe(`patience: ${message}\n`);
  else expect(result.stderr).toMatch(message);
  expect(result.code).toBe(2);
}

/** A scratch directory for files a test hands to the CLI; call the returned cleanup in afterAll. */
export function scratchDir(): { dir: string; file: (name: string, text: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'patience-cli-'));
  return {
    dir,
    file: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
