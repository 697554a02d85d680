import type { Config } from '../config/types.js';
import { withoutQuery } from '../config/withoutQuery.js';
import { plural } from './plural.js';

const SOURCE_NAMES: Readonly<Record<string, string>> = {
  flag: '--config',
  COHERENCY_CONFIG: '$COHERENCY_CONFIG',
  OPENAI_BASE_URL: '$OPENAI_BASE_URL',
  default: 'default',
  demo: '--demo',
};

/**
 * What start-up says of a config (never a key, nor a query string that may hold one): one
 * line at info that names where the config came from and what it probes, and the whole list
 * of targets and probes for the debug line. `shadowed` is the default file that an
 * OPENAI_BASE_URL set in the shell won over (the demo would otherwise have run); `modelNote`
 * says where the model came from when no variable named it (the one /models lists).
 */
export function configSummary(
  config: Config,
  from: string,
  path: string | null,
  shadowed: string | null = null,
  modelNote: string | null = null,
) {
  const configSource = SOURCE_NAMES[from] ?? from;
  const names = (list: string[]) => (list.length > 4 ? `${list.slice(0, 4).join(', ')}, …` : list.join(', '));
  const target = config.targets[0];
  const where =
    from === 'OPENAI_BASE_URL' && target
      ? `$OPENAI_BASE_URL: ${withoutQuery(target.baseUrl)}, model ${target.model}${modelNote ? ` (${modelNote})` : ''}, ${
          target.apiKeyEnv ? `key from $${target.apiKeyEnv}` : target.apiKeyFile ? `key from the file ${target.apiKeyFile}` : 'no API key'
        }`
      : `${path ?? '?'} (${configSource === 'default' ? 'the default file' : configSource})`;
  const probes = config.probes.map((p) => `${p.name} (${p.maxTokens} tokens, ${p.schedule ? `"${p.schedule}"` : 'manual'})`);
  const message = [
    `config from ${where}`,
    `${plural(config.targets.length, 'target')} (${names(config.targets.map((t) => t.name))}), ${plural(config.probes.length, 'probe')}: ${names(probes)}`,
    ...(config.simulator.enabled ? [`starts the built-in simulator on ${config.simulator.host}:${config.simulator.port}`] : []),
    ...(shadowed ? [`${shadowed} is not used while OPENAI_BASE_URL is set (unset it, or pass --config FILE)`] : []),
  ].join('; ');
  return {
    summary: { configSource, configPath: path, targets: config.targets.length, probes: config.probes.length },
    message,
    dump: {
      targets: config.targets.map((t) => ({ name: t.name, baseUrl: withoutQuery(t.baseUrl), model: t.model, probes: t.probes })),
      probes: config.probes.map((p) => ({ name: p.name, schedule: p.schedule ?? 'manual', maxTokens: p.maxTokens, samples: p.samples })),
    },
  };
}
