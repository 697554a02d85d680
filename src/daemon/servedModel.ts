import type { Dispatcher } from 'undici';
import type { HttpFn } from '../client/httpExchange.js';
import { chooseServedModel, type ModelSetting, type ServedModelChoice } from '../config/chooseServedModel.js';
import type { Config, TargetConfig } from '../config/types.js';
import { withoutQuery } from '../config/withoutQuery.js';
import { identityTargetOf } from '../probe/identityTargetOf.js';

/** The read of /models at start-up: bounded in time and size (a gateway may list hundreds of models). */
export const MODELS_READ = {
  timeouts: { connectSeconds: 5, idleSeconds: 5, totalSeconds: 10 },
  maxBytes: 1024 * 1024,
} as const;

export interface ServedModelDeps {
  http: HttpFn;
  readKeyFile: (path: string) => Promise<string>;
  /** The target's pool (its TLS settings, the proxy); undefined: the shared one. */
  dispatcher?: Dispatcher;
  /** The configuration's secrets (configSecrets.ts), redacted from the answer besides the key the request carries. */
  secrets?: readonly string[];
}

/**
 * The model to probe when OPENAI_BASE_URL is set and no model variable is: one GET
 * {baseUrl}/models, sent with the headers the chat requests carry (the key from OPENAI_API_KEY
 * or OPENAI_API_KEY_FILE), and chooseServedModel's decision on its answer. `target` is the
 * environment's target as validated, its model not yet known. Never throws.
 */
export async function readServedModel(
  target: TargetConfig,
  env: Record<string, string | undefined>,
  deps: ServedModelDeps,
  setting?: ModelSetting,
): Promise<ServedModelChoice> {
  const url = `${target.baseUrl}/models`;
  const shown = withoutQuery(url);
  try {
    const { headers } = await identityTargetOf(target, env, deps.readKeyFile);
    const answer = await deps.http(
      { method: 'GET', url, headers: { ...headers, accept: 'application/json' } },
      {
        timeouts: MODELS_READ.timeouts,
        maxBytes: MODELS_READ.maxBytes,
        ...(deps.secrets ? { secrets: deps.secrets } : {}),
        ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
      },
    );
    const error = answer.error ? `${answer.error.type}: ${answer.error.message}` : null;
    return chooseServedModel({ status: answer.status, body: answer.body, error }, shown, setting);
  } catch (err) {
    return chooseServedModel({ status: null, body: '', error: `internal: ${(err as Error).message}` }, shown, setting);
  }
}

/**
 * readServedModel with the real client: the target's own pool (its TLS settings, and the proxy
 * of the environment), closed once the read is done. Used by serve and by the probe command.
 * `config`: the draft config the target is of, whose secrets (the OTLP credentials, the token)
 * the answer must not give out either.
 */
export async function readServedModelNow(
  target: TargetConfig,
  env: Record<string, string | undefined>,
  setting?: ModelSetting,
  config?: Pick<Config, 'targets' | 'otlp' | 'server'>,
): Promise<ServedModelChoice> {
  const [
    { httpExchange, closeHttpDispatchers },
    { createTargetDispatcher },
    { readCaFile },
    { readProxyEnv },
    { readKeyFile },
    { configSecrets },
  ] = await Promise.all([
    import('../client/httpExchange.js'),
    import('../client/targetDispatcher.js'),
    import('../config/readCaFile.js'),
    import('../client/proxyEnv.js'),
    import('../probe/readKeyFile.js'),
    import('../probe/configSecrets.js'),
  ]);
  const secrets = config ? await configSecrets(config, env, readKeyFile) : [];
  const proxied = readProxyEnv(env);
  const dispatcher = createTargetDispatcher(target.tls, MODELS_READ.timeouts.connectSeconds, readCaFile, proxied.ok ? proxied.proxy : null);
  try {
    return await readServedModel(target, env, { http: httpExchange, readKeyFile, secrets, ...(dispatcher ? { dispatcher } : {}) }, setting);
  } finally {
    await dispatcher?.close();
    await closeHttpDispatchers();
  }
}
