import { httpExchange } from '../../src/client/httpExchange.js';
import { CONFORMANCE_CHECKS } from '../../src/config/probeKindTypes.js';
import type { ProbeConfig } from '../../src/config/types.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { silentLogger, testProbe } from './testConfig.js';

/** A conformance probe of every check (or `over`'s), as the conformance tests run it. */
export function conformanceProbe(over: Partial<ProbeConfig> = {}): ProbeConfig {
  return testProbe({
    name: 'conformance',
    kind: 'conformance',
    messages: [],
    maxTokens: 400,
    conformance: { checks: [...CONFORMANCE_CHECKS] },
    ...over,
  });
}

/** The deps of a conformance run over real HTTP, with `env` for the target's key variable. */
export function conformanceDeps(env: Record<string, string>): ProbeDeps {
  return {
    stream: () => Promise.reject(new Error('a conformance probe sends no generation stream')),
    http: httpExchange,
    env,
    now: Date.now,
    logger: silentLogger,
    newId: () => 'run',
  };
}
