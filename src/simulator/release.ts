import { lookupScenario } from './scenarios/index.js';

/**
 * The release switch: a simulator that is upgraded to a second build after N chat requests,
 * and that build is worse. Before it, the simulator says it is release 1; from request N + 1 on,
 * release 2: in its `Server` header, the `system_fingerprint` of its answers, its vLLM-style
 * `GET /version` and the `root` of its /v1/models entries; and every answer comes from the
 * `degradeTo` scenario instead of the model asked for. Without the switch the simulator says
 * nothing about its version (no header, no fingerprint, no /version), as before.
 */
export interface ReleaseOptions {
  /** Chat requests served by release 1; the next ones get release 2. */
  after: number;
  /** The scenario (a model name, e.g. "collapse-sentence@200") release 2 answers with. */
  degradeTo?: string;
  /** Release 2 streams this many times faster (the "faster but broken" build); default 1. */
  speedup?: number;
}

export const DEFAULT_DEGRADE_TO = 'collapse-sentence@200';

export interface ReleaseIdentity {
  release: 1 | 2;
  server: string;
  systemFingerprint: string;
  version: string;
  root: string;
}

export interface ReleaseSwitch {
  /** Counts one chat request; returns the identity it is served with, the model to answer it with and its pace factor. */
  serve(model: string): { identity: ReleaseIdentity; model: string; speedup: number };
  /** The identity now (for /version and /v1/models). */
  current(): ReleaseIdentity;
}

const identityOf = (release: 1 | 2): ReleaseIdentity => ({
  release,
  server: `coherency-simulator/${release}.0.0`,
  systemFingerprint: `fp_sim_r${release}`,
  version: `${release}.0.0`,
  root: `/models/simulated-r${release}`,
});

/** Checks the options (a clear RangeError naming what is wrong) and returns the switch. */
export function createReleaseSwitch(options: ReleaseOptions): ReleaseSwitch {
  if (!Number.isInteger(options.after) || options.after < 0) {
    throw new RangeError(`release.after must be a whole number >= 0, got ${options.after}`);
  }
  const degradeTo = options.degradeTo ?? DEFAULT_DEGRADE_TO;
  const speedup = options.speedup ?? 1;
  if (!Number.isFinite(speedup) || speedup <= 0) throw new RangeError(`release.speedup must be a number > 0, got ${options.speedup}`);
  const lookup = lookupScenario(degradeTo);
  if (!lookup.ok) throw new RangeError(`release.degradeTo: ${lookup.message}`);
  let served = 0;
  return {
    serve(model) {
      served++;
      const release = served > options.after ? 2 : 1;
      return { identity: identityOf(release), model: release === 2 ? degradeTo : model, speedup: release === 2 ? speedup : 1 };
    },
    current: () => identityOf(served > options.after ? 2 : 1),
  };
}
