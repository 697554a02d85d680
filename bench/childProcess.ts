// What the benches that run the daemon as a process share: a free loopback port, waiting for
// an endpoint to answer 200, and stopping a child (SIGTERM, then SIGKILL).
import type { ChildProcess } from 'node:child_process';

// the tests' helper: one way to find a free loopback port
export { freePort } from '../test/helpers/integrationProcess.js';

/** Polls `url` every 100 ms until it answers 200; throws when the child exits first or time runs out. */
export async function waitOk(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode})`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url}: not ready after ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The child's exit code once it exits, or null when it is still running after `timeoutMs`. */
export function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => resolve(null), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}
