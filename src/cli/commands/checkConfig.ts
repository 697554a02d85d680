import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { plural } from '../plural.js';

export const checkConfig: Command = {
  summary: `validate a config file and list every problem (exit ${EXIT.OK} valid, ${EXIT.USAGE} invalid)`,
  usage: `coherency-exporter check-config FILE [--strict]

Reads FILE as serve would and lists every problem at once, each with its path
(targets[0].baseUrl: ...), then exits. It checks the YAML, unknown keys (with a
suggestion), values and their ranges, cron schedules field by field, that every
probe a target names exists, and that apiKeyFile and tls.caFile can be read.

An apiKeyEnv variable that is not set is a warning here, so a pipeline can check the
file without the secret; serve and a reload still refuse it.

  --strict   treat an unset apiKeyEnv variable as an error, as serve does

Exit status: ${EXIT.OK} valid (warnings are printed to stderr), ${EXIT.USAGE} invalid or unreadable.
Example (CI):  coherency-exporter check-config config/coherency.yaml`,
  options: { strict: { type: 'boolean' } },
  allowPositionals: true,
  async run(values, positionals, io) {
    const file = positionals[0];
    if (!file || positionals.length > 1) {
      io.stderr('error: check-config takes exactly one FILE\n');
      return EXIT.USAGE;
    }
    const { loadConfig } = await import('../../config/loadConfig.js');
    const result = await loadConfig(file, io.env, { missingSecrets: values['strict'] ? 'error' : 'warning' });
    if (!result.ok) {
      io.stderr(`${file}: ${plural(result.errors.length, 'problem')}\n`);
      for (const e of result.errors) io.stderr(`  ${e}\n`);
      return EXIT.USAGE;
    }
    for (const w of result.warnings ?? []) io.stderr(`warning: ${w} (an error at serve; --strict makes it one here)\n`);
    const c = result.config;
    io.stdout(`${file}: valid (${plural(c.targets.length, 'target')}, ${plural(c.probes.length, 'probe')})\n`);
    return EXIT.OK;
  },
};
