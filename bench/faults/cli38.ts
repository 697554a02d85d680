import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../childProcess.js';
import { type Case, CLI, check, runCases } from './shared.js';

/**
 * Issue 38 item 4 (the command line split into one module per command) from outside, through
 * the launcher as a user runs it: every command answers --help and refuses an unknown flag with
 * its own usage line; an unknown command, an unreadable input, a healthcheck with nothing
 * listening and a flag value holding terminal controls each end with the exit code of the one
 * table and one plain line; and --version still starts without the heavy modules. About 10 s.
 */

const COMMANDS = ['serve', 'simulate', 'analyze', 'probe', 'healthcheck', 'schema', 'check-config'];

interface Ran {
  status: number | null;
  out: string;
  err: string;
  ms: number;
}

/** The CLI as a child process, bounded; `stdinFile` is opened for reading only. */
function cli(args: string[], stdinFile?: string): Ran {
  const fd = stdinFile === undefined ? undefined : openSync(stdinFile, 'r');
  try {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: [fd ?? 'ignore', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '' },
    });
    return { status: r.status, out: r.stdout, err: r.stderr, ms: performance.now() - t0 };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export async function cli38Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const cases: Case[] = [
    [
      'cli: --help of every command',
      async () => {
        for (const c of COMMANDS) {
          const r = cli([c, '--help']);
          check(r.status === 0, `${c} --help exited ${r.status}`);
          check(r.out.startsWith(`coherency-exporter ${c}`), `${c} --help began: ${r.out.slice(0, 60)}`);
        }
        const top = cli(['--help']);
        check(top.status === 0 && COMMANDS.every((c) => top.out.includes(`  ${c} `)), 'the top-level help misses a command');
        return `${COMMANDS.length} commands, exit 0, each usage names its command; the top level lists all`;
      },
    ],
    [
      'cli: an unknown flag to every command',
      async () => {
        for (const c of COMMANDS) {
          const r = cli([c, '--no-such-flag']);
          check(r.status === 2, `${c} exited ${r.status}`);
          check(r.err.includes(`Usage: coherency-exporter ${c}`), `${c} said: ${r.err.trim().slice(0, 120)}`);
        }
        return "exit 2 with the command's usage line, for each";
      },
    ],
    [
      'cli: an unknown command',
      async () => {
        const r = cli(['frobnicate']);
        check(r.status === 2, `exited ${r.status}`);
        check(/unknown command "frobnicate" \(commands: serve, simulate/.test(r.err), `said: ${r.err.trim()}`);
        return 'exit 2, naming it and listing the commands';
      },
    ],
    [
      'cli: analyze of /dev/zero, as FILE and as standard input',
      async () => {
        const named = cli(['analyze', '/dev/zero']);
        check(named.status === 2 && /cannot read \/dev\/zero/.test(named.err), `FILE: exit ${named.status}: ${named.err.trim()}`);
        const piped = cli(['analyze'], '/dev/zero');
        check(piped.status === 2 && /cannot read standard input/.test(piped.err), `stdin: exit ${piped.status}: ${piped.err.trim()}`);
        return `exit 2 both (${named.err.trim().replace(/^error: /, '')}; ${piped.err.trim().replace(/^error: /, '')}), in ${Math.round(piped.ms)} ms`;
      },
    ],
    [
      'cli: check-config of a missing file and of a directory',
      async () => {
        const missing = join(root, 'cli38-missing.yaml');
        const a = cli(['check-config', missing]);
        check(a.status === 2 && a.err.includes(missing), `missing: exit ${a.status}: ${a.err.trim().slice(0, 160)}`);
        const b = cli(['check-config', root]);
        check(b.status === 2, `directory: exit ${b.status}`);
        return 'exit 2, naming the file';
      },
    ],
    [
      'cli: healthcheck with nothing listening',
      async () => {
        const port = await freePort();
        const r = cli(['healthcheck', '--host', '127.0.0.1', '--port', String(port), '--timeout', '2']);
        check(r.status === 1, `exited ${r.status}`);
        check(/^unhealthy: http:\/\/127\.0\.0\.1:\d+\/-\/healthy: ECONNREFUSED/.test(r.err), `said: ${r.err.trim()}`);
        return `exit 1 in ${Math.round(r.ms)} ms: ${r.err.trim().replace(/:\d+\//, ':PORT/')}`;
      },
    ],
    [
      'cli: a flag value holding terminal controls',
      async () => {
        const r = cli(['analyze', '--channel', '\u001b]0;owned\u0007\u001b[2J']);
        check(r.status === 2, `exited ${r.status}`);
        check(!/[\u0007\u001b]/.test(r.err), 'a control character reached the terminal');
        return `exit 2, shown escaped: ${r.err.trim()}`;
      },
    ],
    [
      'cli: --version start time (best of 5)',
      async () => {
        let best = Number.POSITIVE_INFINITY;
        for (let i = 0; i < 5; i++) {
          const r = cli(['--version']);
          check(r.status === 0 && /^\d+\.\d+\.\d+/.test(r.out), `exit ${r.status}: ${r.out}`);
          best = Math.min(best, r.ms);
        }
        // node alone takes ~40 ms here; loading the daemon's HTTP stack would add well over 100
        check(best < 400, `${Math.round(best)} ms`);
        return `${Math.round(best)} ms`;
      },
    ],
  ];
  await runCases(cases, results);
}
