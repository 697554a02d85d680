import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toJson } from '../http/jsonReply.js';
import { sampleView } from '../http/runView.js';
import type { SampleResult } from '../probe/probeTypes.js';

/**
 * Writes one sample's evidence under DIR/TARGET/PROBE/sample-N/: result.json (as /probe shows
 * a sample, without the texts), and those of output.txt, reasoning.txt and capture.sse (the
 * response body as received; `coherency-exporter analyze` re-judges it) that have something in
 * them: a model that streams no reasoning gets no empty reasoning.txt. Target and probe names
 * are [a-z0-9_-] (the validator's rule), safe as path parts. Resolves to the sample's folder
 * and the files written.
 */
export async function saveSample(
  dir: string,
  target: string,
  probe: string,
  sample: SampleResult,
  capture: Uint8Array | null,
): Promise<{ where: string; files: string[] }> {
  const where = join(dir, target, probe, `sample-${sample.index}`);
  await mkdir(where, { recursive: true });
  const files: [string, string | Uint8Array | null][] = [
    ['output.txt', sample.content],
    ['reasoning.txt', sample.reasoning],
    ['result.json', `${JSON.stringify(JSON.parse(toJson({ target, probe, ...sampleView(sample, false) })), null, 2)}\n`],
    ['capture.sse', capture],
  ];
  const written: string[] = [];
  for (const [name, data] of files) {
    if (data === null || data.length === 0) continue;
    await writeFile(join(where, name), data);
    written.push(name);
  }
  return { where, files: written };
}
