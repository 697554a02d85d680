import type { StreamFn } from '../../src/probe/probeDeps.js';
import type { ChatRequest, StreamResult } from '../../src/client/streamTypes.js';
import { streamResult } from './testConfig.js';

/**
 * A stream function that answers from a table keyed by model name, records the
 * requests it got, and can be held open until released (to test overlap).
 */
export function fakeStream(byModel: Record<string, Partial<StreamResult>>) {
  const requests: ChatRequest[] = [];
  let gate: Promise<void> | null = null;
  let release = () => {};
  const fn: StreamFn = async (request, options) => {
    requests.push(request);
    if (gate) await gate;
    const model = String(request.body['model']);
    const answer = byModel[model];
    if (!answer) throw new Error(`fakeStream: no answer for model ${model}`);
    const result = streamResult(answer);
    options.onProgress?.({ contentDelta: result.content.slice(0, 10), reasoningDelta: '', tokens: 1 });
    options.onProgress?.({ contentDelta: result.content.slice(10), reasoningDelta: '', tokens: result.outputTokens });
    return result;
  };
  return {
    fn,
    requests,
    hold() {
      gate = new Promise((r) => (release = r));
    },
    release() {
      gate = null;
      release();
    },
  };
}
