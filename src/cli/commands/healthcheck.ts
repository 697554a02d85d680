import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { parsePort } from '../parsePort.js';

export const healthcheck: Command = {
  summary: `ask a running exporter whether it is alive (exit ${EXIT.OK} healthy, ${EXIT.FAILED} not); for container HEALTHCHECKs`,
  usage: `coherency-exporter healthcheck [--config FILE] [--host H] [--port N] [--timeout SECONDS]

GETs /-/healthy on the address serve listens on: server.host and server.port of the config
serve would pick (--config, $COHERENCY_CONFIG, $OPENAI_BASE_URL, config/coherency.yaml), read
without validating the rest, so a daemon that kept its last good config after a rejected
reload still passes. A wildcard listen address (0.0.0.0, ::) is asked on loopback. --host and
--port override, as they do for serve: give it the same ones.

  --timeout S   seconds to wait for the answer (default 3)

Exit status: ${EXIT.OK} healthy, ${EXIT.FAILED} no answer or not 200, ${EXIT.USAGE} bad usage.`,
  options: {
    config: { type: 'string', short: 'c' },
    host: { type: 'string' },
    port: { type: 'string', short: 'p' },
    timeout: { type: 'string' },
  },
  allowPositionals: false,
  async run(values, _pos, io) {
    const port = values['port'] === undefined ? undefined : parsePort(String(values['port']));
    if (port === null) {
      io.stderr(`error: --port: must be an integer from 0 to 65535, got "${String(values['port'])}"\n`);
      return EXIT.USAGE;
    }
    const timeout = Number(values['timeout'] ?? '3');
    if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 300) {
      io.stderr(`error: --timeout: seconds, more than 0 and at most 300, got "${String(values['timeout'])}"\n`);
      return EXIT.USAGE;
    }
    const { listenAddress } = await import('../../config/listenAddress.js');
    const { resolveConfigSource } = await import('../../config/loadConfig.js');
    const source = resolveConfigSource({
      ...(values['config'] !== undefined ? { configFlag: String(values['config']) } : {}),
      env: io.env,
    });
    const address = await listenAddress(source);
    const host = values['host'] !== undefined ? String(values['host']) : address.host;
    const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port ?? address.port}/-/healthy`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeout * 1000) });
      await res.arrayBuffer();
      if (res.status === 200) return EXIT.OK;
      io.stderr(`unhealthy: ${url} answered HTTP ${res.status}\n`);
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const why = e.name === 'TimeoutError' ? `no answer within ${timeout} s` : (e.cause?.code ?? e.message);
      io.stderr(`unhealthy: ${url}: ${why} (address from ${address.from})\n`);
    }
    return EXIT.FAILED;
  },
};
