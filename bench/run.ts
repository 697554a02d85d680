// npm run bench: every benchmark of the project, one after the other, figures on stdout.
import { runAnalyzerBench } from './analyzer.js';
import { runCliProcessBench } from './cliProcess.js';
import { runCodeFilesBench } from './codeFiles.js';
import { runCorpusBench } from './corpus.js';
import { runFamiliesBench } from './families.js';
import { runFaultsBench } from './faults.js';
import { runHistoryBench } from './history.js';
import { runLoadBench } from './load.js';
import { runLongProbeBench } from './longProbe.js';
import { runProbePathBench } from './probePath.js';
import { runRealWorldBench } from './realWorld.js';
import { runSeriesBench } from './series.js';
import { runStreamBench } from './stream.js';
import { runThresholdsBench } from './thresholds.js';
import { runTranslationsBench } from './translations.js';
import { runStreamSpreadBench } from './streamSpread.js';

const only = process.argv[2];
const benches: Record<string, () => Promise<void>> = {
  analyzer: runAnalyzerBench,
  cli: runCliProcessBench,
  realworld: runRealWorldBench,
  translations: runTranslationsBench,
  code: runCodeFilesBench,
  thresholds: runThresholdsBench,
  stream: () => runStreamBench(),
  probe: runProbePathBench,
  longprobe: runLongProbeBench,
  corpus: runCorpusBench,
  families: runFamiliesBench,
  series: runSeriesBench,
  history: runHistoryBench,
  streamspread: () => runStreamSpreadBench(process.argv.slice(3)),
};
// Not in the default run: a minute of load that needs the machine to itself (npm run bench -- load [--seconds N] [--before CLI]).
if (only === 'load') {
  console.log('\n== load ==');
  await runLoadBench(process.argv.slice(3));
}
// Not in the default run either: the fault and abuse cases against a real daemon (about a minute).
if (only === 'faults') {
  console.log('\n== faults ==');
  await runFaultsBench();
}
for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(`\n== ${name} ==`);
  await run();
}
