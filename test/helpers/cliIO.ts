import type { CliIO } from '../../src/cli/cliIO.js';

/** A CliIO that keeps what a command writes, with the environment and standard input given. */
export function cliIO(stdin = '', env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const value: CliIO = {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
    env,
    readStdin: async () => new TextEncoder().encode(stdin),
    stderrIsTTY: false,
  };
  return { io: value, out: () => out, err: () => err };
}
