import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toJson } from '../http/jsonReply.js';
import { sampleView } from '../http/runView.js';
import type { SampleResult } from '../probe/probeTypes.js';

/**
 * Writes one sample's evidence under DIR/TARGET/PROBE/sample-N/: output.txt, reasoning.txt,
 * result.json (as /probe shows a sample, without the texts) and, when there is one,
 * capture.sse (the response body as received; `coherency-exporter analyze` re-judges it).
 * Target and probe names are [a-z0-9_-] (the validator's rule), safe as path parts.
 * Resolves to the sample's folder.
 */
export async function saveSample(
  dir: string,
  target: string,
  probe: string,
  sample: SampleResult,
  capture: Uint8Array | null,
): Promise<string> {
  const where = join(dir, target, probe, `sample-${sample.index}`);
  await mkdir(where, { recursive: true });
  await writeFile(join(where, 'output.txt'), sample.content);
  await writeFile(join(where, 'reasoning.txt'), sample.reasoning);
  await writeFile(
    join(where, 'result.json'),
    `${JSON.stringify(JSON.parse(toJson({ target, probe, ...sampleView(sample, false) })), null, 2)}\n`,
  );
  if (capture) await writeFile(join(where, 'capture.sse'), capture);
  return where;
}
