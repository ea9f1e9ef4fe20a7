import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample, edgeops } from './run.ts';

describe('--help', () => {
  it('lists the commands, the exit codes and examples', async () => {
    const r = await edgeops(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of ['validate', 'plan', 'apply', 'serve']) expect(r.stdout).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    expect(r.stdout).toContain('Exit codes: 0 success, 1 error');
    expect(r.stdout).toContain('$ edgeops apply --local --auto-approve');
  });

  it.each([
    ['validate', ['Exit codes: 0 valid, 1 invalid', '$ edgeops validate\n']],
    ['plan', ['--format <format>', '--detailed-exitcode', '--api-url <url>', 'EDGEOPS_API_URL', 'EDGEOPS_API_KEY', 'EDGEOPS_STACK', '--local', '--no-color',
      'with --detailed-exitcode: 0 no changes, 2 changes', '$ edgeops plan --local\n']],
    ['apply', ['--auto-approve', '--concurrency <n>', 'default 10', '$ edgeops apply --local --auto-approve']],
    ['serve', ['--host <host>', '--port <port>', '--api-key <key>', '--account <name=key>', '--accounts <file>', '--db <file-or-url>',
      'EDGEOPS_DATABASE_URL', '--pool-size <n>', '--migrate-only', '--rate-limit <n>', 'SIGINT or SIGTERM', '/healthz and /readyz',
      '$ edgeops serve --port 4010 --api-key dev --db ./edge.db', '$ edgeops serve --api-key dev --db postgres://']],
  ])('edgeops %s --help shows its options and examples', async (cmd, expected) => {
    const r = await edgeops([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: edgeops ${cmd}`);
    expect(r.stdout).toContain('Examples:');
    for (const text of expected) expect(r.stdout).toContain(text);
  });

  it('prints the version', async () => {
    const r = await edgeops(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 1 on an unknown command or option, with a hint', async () => {
    const unknown = await edgeops(['deploy']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^edgeops: unknown command 'deploy'\n/);
    const badOption = await edgeops(['plan', 'x', '--colour']);
    expect(badOption.code).toBe(1);
    expect(badOption.stderr).toMatch(/^edgeops: unknown option '--colour'\n/);
    expect(badOption.stderr).toContain('(add --help for usage)');
  });

  it('reads the current directory when a command is given no paths', async () => {
    const help = await edgeops(['plan', '--help']);
    expect(help.stdout).toContain('Usage: edgeops plan [options] [paths...]');
    expect(help.stdout).toMatch(/paths +manifest files or directories \(default: the current\s+directory\)/);
    const example = copyExample('basic');
    const empty = mkdtempSync(join(tmpdir(), 'edgeops-no-paths-'));
    try {
      const r = await edgeops(['validate'], { cwd: example.dir });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('8 resources valid\n');
      // Where there is nothing, the current directory is named as the path that yields no document.
      const none = await edgeops(['validate'], { cwd: empty });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('  .: no *.yaml or *.yml file below it\n');
    } finally {
      example.dispose();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
