import { SignalGate } from '../../signalGate.js';
import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { makeLogger } from '../makeLogger.js';
import { parsePort } from '../parsePort.js';

export const simulate: Command = {
  summary: 'run the built-in OpenAI-compatible simulator alone',
  usage: `coherency-exporter simulate [--host H] [--port N] [--tokens-per-second N] [--api-key-env VAR] [--release-after N [--degrade-to MODEL] [--release-speedup F]]

  --host H                 listen address (default 127.0.0.1)
  --port N                 listen port (default 8089)
  --tokens-per-second N    streaming rate; 0 = as fast as possible (default 2000)
  --api-key-env VAR        require Authorization: Bearer <the value of VAR> on every request
  --release-after N        say release 1 (Server header, system_fingerprint, GET /version) for N chat
                           requests, then release 2, whose answers come from --degrade-to
  --degrade-to MODEL       the scenario release 2 answers with (default collapse-sentence@200)
  --release-speedup F      release 2 streams F times faster (default 1): faster but broken

It serves POST /v1/chat/completions, /v1/completions (a prompt) and /v1/responses (typed
events), streamed or not, and GET /v1/models. The model name picks the scenario:
`,
  moreHelp: async () => {
    const { SCENARIO_MAP } = await import('../../simulator/scenarios/index.js');
    const { DEFECTS } = await import('../../simulator/defects.js');
    const { BUILDS } = await import('../../simulator/builds.js');
    return [
      ...[...SCENARIO_MAP.values()].map((sc) => `  ${sc.name.padEnd(24)} ${sc.description}`),
      '',
      'A base URL of http://HOST:PORT/defect/NAME[+NAME...]/v1 answers with these defects',
      '(what a broken server or proxy does; the conformance probe tells each apart):',
      ...DEFECTS.map((d) => `  ${d.name.padEnd(24)} ${d.description}`),
      '',
      'A base URL of http://HOST:PORT/build/NAME@N/v1 is another build of the same model, which',
      'departs from the output of /v1 at token N (for `probe --baseline`; /defect/... may follow):',
      ...BUILDS.map((b) => `  ${b.name.padEnd(24)} ${b.description}`),
    ].join('\n');
  },
  options: {
    host: { type: 'string' },
    port: { type: 'string', short: 'p' },
    'tokens-per-second': { type: 'string' },
    'api-key-env': { type: 'string' },
    'release-after': { type: 'string' },
    'degrade-to': { type: 'string' },
    'release-speedup': { type: 'string' },
  },
  allowPositionals: false,
  async run(values, _pos, io) {
    const port = parsePort(String(values['port'] ?? '8089'));
    const releaseAfter = values['release-after'] === undefined ? null : Number(values['release-after']);
    if (releaseAfter !== null && !(Number.isInteger(releaseAfter) && releaseAfter >= 0)) {
      io.stderr(`error: --release-after: must be a whole number >= 0\n`);
      return EXIT.USAGE;
    }
    for (const flag of ['degrade-to', 'release-speedup'] as const) {
      if (values[flag] !== undefined && releaseAfter === null) {
        io.stderr(`error: --${flag} goes with --release-after\n`);
        return EXIT.USAGE;
      }
    }
    const speedup = values['release-speedup'] === undefined ? null : Number(values['release-speedup']);
    if (speedup !== null && !(Number.isFinite(speedup) && speedup > 0)) {
      io.stderr(`error: --release-speedup: must be a number > 0\n`);
      return EXIT.USAGE;
    }
    const rate = Number(values['tokens-per-second'] ?? '2000');
    if (port === null) {
      io.stderr(`error: --port: must be an integer from 0 to 65535\n`);
      return EXIT.USAGE;
    }
    if (!Number.isFinite(rate) || rate < 0) {
      io.stderr(`error: --tokens-per-second: must be a number >= 0\n`);
      return EXIT.USAGE;
    }
    const keyEnv = values['api-key-env'] === undefined ? null : String(values['api-key-env']);
    const apiKey = keyEnv === null ? undefined : io.env[keyEnv]?.trim();
    if (keyEnv !== null && !apiKey) {
      io.stderr(`error: --api-key-env: environment variable ${/^[A-Z_][A-Z0-9_]{0,63}$/.test(keyEnv) ? keyEnv : '(named)'} is not set\n`);
      return EXIT.USAGE;
    }
    const { startSimulator, createReleaseSwitch } = await import('../../simulator/index.js');
    const release =
      releaseAfter === null
        ? null
        : {
            after: releaseAfter,
            ...(values['degrade-to'] !== undefined ? { degradeTo: String(values['degrade-to']) } : {}),
            ...(speedup !== null ? { speedup } : {}),
          };
    if (release) {
      try {
        createReleaseSwitch(release);
      } catch (err) {
        io.stderr(`error: --degrade-to: ${(err as Error).message.replace(/^release\.degradeTo: /, '')}\n`);
        return EXIT.USAGE;
      }
    }
    const sim = await startSimulator({
      host: String(values['host'] ?? '127.0.0.1'),
      port,
      tokensPerSecond: rate,
      ...(apiKey ? { apiKey } : {}),
      ...(release ? { release } : {}),
    });
    io.stdout(`simulator listening on ${sim.url}\n`);
    // SIGTERM/SIGINT as serve stops (graceful, a second one at once); nothing to reload, so SIGHUP keeps node's default
    const gate = new SignalGate(process, undefined, { reloads: false });
    gate.useLogger(await makeLogger(io));
    gate.attach({ stop: () => sim.close(), reload: async () => undefined });
    return 'running';
  },
};
