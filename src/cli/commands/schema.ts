import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';

export const schema: Command = {
  summary: 'print the JSON Schema of the config file, for editors (yaml-language-server) and CI',
  usage: `coherency-exporter schema

Prints the JSON Schema (draft 2020-12) of the config file on stdout: the keys, types,
ranges, enums and defaults that check-config checks, written from the same declaration.
Editors that validate YAML against a schema (VS Code's YAML extension, any editor with
yaml-language-server) then complete keys and flag mistakes as you type, given this first
line in the config file:

  # yaml-language-server: $schema=./coherency.schema.json

The package ships the same file as config/coherency.schema.json. check-config checks more
than the schema can say (cron fields, files, environment variables, probe names).

Exit status: ${EXIT.OK}.`,
  options: {},
  allowPositionals: false,
  async run(_values, _pos, io) {
    const { configSchemaText } = await import('../../config/configSchema.js');
    io.stdout(configSchemaText());
    return EXIT.OK;
  },
};
