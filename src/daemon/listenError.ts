/** A listen failure that start-up reports as one line naming the setting, instead of a stack trace. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

const LISTEN_PROBLEMS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use (another exporter, or the same port twice)',
  EADDRNOTAVAIL: "the address is not one of this machine's",
  EACCES: 'permission denied (ports below 1024 need privileges)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now (DNS)',
  EAI_NONAME: 'the host name does not resolve',
  EAFNOSUPPORT: 'this machine has no network of that address family (IPv6?)',
};

/**
 * A ListenError naming the setting to change (`server.host/server.port`, `simulator.host/...`,
 * or the flags) when the failure is one of LISTEN_PROBLEMS; any other error as it came.
 */
export function listenError(err: unknown, where: string, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const why = LISTEN_PROBLEMS[code];
  if (!why) return err;
  const key = where === 'server' || where === 'simulator' ? `${where}.host/${where}.port` : where;
  return new ListenError(`cannot listen on ${host}:${port} (${key}): ${why}`, code);
}
