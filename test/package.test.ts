import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The package as a user gets it: `npm pack` (the files list of package.json), installed into a fresh
// project from the tarball, its dependencies from the registry. Needs `npm run build` first (npm test
// builds). Slow: it runs npm twice.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let work = '';
let project = '';

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });

describe('the packed package', () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'patience-pack-'));
    run(NPM, ['pack', '--pack-destination', work, '--silent'], ROOT);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack left no tarball in ${work}`);
    project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'try-patience', version: '1.0.0', private: true, type: 'module' }));
    run(NPM, ['install', join(work, tarball), '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], project);
  }, 300_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('imports the library with ESM', () => {
    const script = `
      import { resolveRules, dealFromSeed, describePosition, presets, PatienceError } from 'patience-solver';
      const p = dealFromSeed(resolveRules('canfield'), 1);
      console.log(describePosition(p).split('\\n')[0]);
      console.log(Object.keys(presets).length, typeof PatienceError);`;
    const out = run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(out).toBe('canfield   base K   52 cards\n7 function\n');
  });

  it('ships type declarations', () => {
    const out = run(process.execPath, ['-e', "console.log(require.resolve('patience-solver/package.json'))"], project);
    const pkgDir = join(out.trim(), '..');
    expect(readdirSync(join(pkgDir, 'dist'))).toContain('index.d.ts');
  });

  it('runs the patience bin', () => {
    const out = run(join(project, 'node_modules', '.bin', 'patience'), ['games'], project);
    expect(out.split('\n')[0]).toMatch(/^canister\s+8 open piles/);
    const shown = run(join(project, 'node_modules', '.bin', 'patience'), ['show', 'canfield', '--seed', '1'], project);
    expect(shown.split('\n')[0]).toBe('canfield   base K   52 cards');
  });
});
