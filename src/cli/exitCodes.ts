/**
 * The exit codes of every command, and the one place they are declared: each command returns
 * one of these, and the help texts that state a command's exit status are written from them.
 * 0 ok; 1 a check failed (a failing verdict, an unhealthy daemon); 2 bad usage or bad input
 * (unreadable file, invalid config, a refused baseline); 3 a target error and nothing failed
 * (`probe` only: connect, HTTP status, timeout).
 */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, TARGET_ERROR: 3 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
