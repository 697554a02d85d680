import type { Dispatcher } from 'undici';
import type { HttpFn } from '../client/httpExchange.js';
import type { ProxyEnv } from '../client/proxyEnv.js';
import type { Config, TargetConfig } from '../config/types.js';
import type { StreamFn } from '../probe/probeDeps.js';

/** The HTTP clients the probes and the fingerprint reads use, and the pools of targets with their own TLS settings. */
export interface TargetClients {
  stream: StreamFn;
  http: HttpFn;
  /** The target's own pool (its TLS settings); undefined: the shared pools. */
  dispatcherFor(target: TargetConfig): Dispatcher | undefined;
  /**
   * Builds the pools of a config's targets without swapping them in, so that a CA file that
   * vanished since validation fails a reload instead of half-applying it. Throws on a file that
   * cannot be read.
   */
  prepare(config: Config): Promise<Map<string, Dispatcher>>;
  /** Swaps in pools made by prepare and closes the previous ones. */
  swap(next: Map<string, Dispatcher>): void;
  close(): Promise<void>;
}

/**
 * The clients of a config's targets. The HTTP client (undici, a fifth of start-up) is loaded
 * only where a probe, a TLS setting or a proxy needs it, not before the server is ready. With a
 * proxy (read once at start-up from the daemon's environment), every target gets its own pool
 * that sends its requests, chat and fingerprint reads alike, through the proxy unless NO_PROXY
 * names the target's host.
 */
export async function createTargetClients(config: Config, proxy: ProxyEnv | null = null): Promise<TargetClients> {
  const prepare = async (c: Config): Promise<Map<string, Dispatcher>> => {
    const made = new Map<string, Dispatcher>();
    if (!proxy && !c.targets.some((t) => t.tls.caFile || t.tls.insecureSkipVerify)) return made;
    const [{ createTargetDispatcher }, { readCaFile }] = await Promise.all([
      import('../client/targetDispatcher.js'),
      import('../config/readCaFile.js'),
    ]);
    for (const t of c.targets) {
      const d = createTargetDispatcher(t.tls, t.timeouts.connectSeconds, readCaFile, proxy);
      if (d) made.set(t.name, d);
    }
    return made;
  };
  let dispatchers = await prepare(config);
  let streaming: Promise<typeof import('../client/streamChat.js')> | null = null;
  const loadStreaming = () => (streaming ??= import('../client/streamChat.js'));
  let plain: Promise<typeof import('../client/httpExchange.js')> | null = null;
  const loadPlain = () => (plain ??= import('../client/httpExchange.js'));
  return {
    stream: async (request, options) => (await loadStreaming()).streamChat(request, options),
    http: async (request, options) => (await loadPlain()).httpExchange(request, options),
    dispatcherFor: (t) => dispatchers.get(t.name),
    prepare,
    swap(next) {
      const previous = dispatchers;
      dispatchers = next;
      for (const d of previous.values()) void d.close();
    },
    async close() {
      await Promise.all([...dispatchers.values()].map((d) => d.close()));
      if (streaming) await (await streaming).closeStreamDispatchers();
      if (plain) await (await plain).closeHttpDispatchers();
    },
  };
}
