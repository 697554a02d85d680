import type { ServerResponse } from 'node:http';
import { completionBody, createChunkEncoder, type ChunkIdentity, type EncoderOptions, type ToolCall, type Usage } from './chunks.js';
import { NO_DEFECTS, type Defects } from './defects.js';
import type { BodyPlan, GenerationPlan } from './scenarios/types.js';
import type { SimulatedRequest } from './types.js';
import { apiCompletionBody, createCompletionsEncoder, createResponsesEncoder, type ApiEncoder } from './apiEncoders.js';

export interface ResponseContext {
  res: ServerResponse;
  record: SimulatedRequest;
  identity: ChunkIdentity;
  tokensPerSecond: number;
  includeUsage: boolean;
  /** The request asked for logprobs: every content token carries one. */
  logprobs?: boolean;
  promptTokens: number;
  /** Registers a hook the simulator calls from close(); returns the unregister function. */
  track(abort: () => void): () => void;
  /** The switches of the request's path (defects.ts); none when absent. */
  defects?: Defects;
  /** The API asked, when not chat: its wire format (apiEncoders.ts). */
  api?: 'completions' | 'responses';
}

/** The encoder of the request's API. */
function encoderFor(context: ResponseContext, options: EncoderOptions): ApiEncoder {
  if (context.api === 'completions') return createCompletionsEncoder(context.identity, options);
  if (context.api === 'responses') return createResponsesEncoder(context.identity, options);
  return createChunkEncoder(context.identity, options);
}

/** How the defects of a request shape what it is sent. */
function encoderOptions(defects: Defects): EncoderOptions {
  return {
    reasoning: defects.has('reasoning-dropped') ? 'dropped' : defects.has('think-in-content') ? 'think-tags' : 'field',
    lengthAsStop: defects.has('finish-rewritten'),
    toolIndexZero: defects.has('tool-index-zero'),
    createdAsString: defects.has('created-as-string'),
  };
}

// Paced streams write what is due on each tick; a tick of a few ms keeps 2k–20k tok/s
// both accurate and cheap (one write per tick instead of one per token).
const MIN_TICK_MS = 5;
// Bounds one write: at most this many tokens per tick, and per write when unpaced.
const MAX_BATCH = 2048;
const UNPACED_BATCH = 256;
const CATCH_UP_SECONDS = 0.02;

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

export function respondBody(plan: BodyPlan, context: ResponseContext): void {
  const { res, record } = context;
  record.status = plan.status;
  res.writeHead(plan.status, { 'Content-Type': plan.contentType, ...plan.headers });
  res.end(plan.body);
  record.finished = true;
}

/**
 * Streams a generation as SSE. Stops writing the moment the client goes away and
 * records at which token; close() of the simulator ends it wherever it is.
 */
export function streamGeneration(plan: GenerationPlan, context: ResponseContext): void {
  const { res, record, tokensPerSecond: rate } = context;
  const defects = context.defects ?? NO_DEFECTS;
  const encoder = encoderFor(context, encoderOptions(defects));
  // a buffering proxy: what the server streams is held, and goes out in one piece at the end
  const held: string[] | null = defects.has('buffered') ? [] : null;
  const write = (text: string): boolean => {
    if (held === null) return res.write(text);
    held.push(text);
    return true;
  };
  // After an event-loop hiccup, catch up over a few ticks rather than in one burst.
  const maxPacedBatch = Math.min(MAX_BATCH, Math.max(1, Math.ceil(rate * CATCH_UP_SECONDS)));
  let sent = 0;
  let stopped = false;
  let serverEnded = false;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;

  const untrack = context.track(() => {
    serverEnded = true;
    stop();
    res.destroy();
  });

  function stop(): void {
    if (stopped) return;
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    wakeUp();
    untrack();
  }

  function wakeUp(): void {
    const resolve = wake;
    wake = null;
    resolve?.();
  }

  /** Resolves after `ms`, on 'drain' (ms < 0), or at once when the stream stops. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (stopped) return resolve();
      wake = resolve;
      if (ms < 0) {
        res.once('drain', wakeUp);
      } else if (ms === 0) {
        setImmediate(wakeUp);
      } else {
        timer = setTimeout(() => {
          timer = null;
          wakeUp();
        }, ms);
      }
    });
  }

  res.on('close', () => {
    if (!serverEnded) record.clientClosedAtToken = sent;
    res.off('drain', wakeUp);
    stop();
  });
  res.on('error', () => stop());

  const pump = async (): Promise<void> => {
    if (plan.headerDelayMs > 0) await pause(plan.headerDelayMs);
    if (stopped) return;
    record.status = 200;
    res.writeHead(200, SSE_HEADERS);
    write(encoder.role());
    const start = performance.now();
    let injected = plan.inject === null;
    let ended: 'natural' | 'limit' | null = null;
    while (!stopped) {
      let budget = UNPACED_BATCH;
      if (rate > 0) {
        const due = Math.floor(((performance.now() - start) * rate) / 1000) + 1;
        budget = Math.min(due - sent, maxPacedBatch);
      }
      let batch = '';
      for (; budget > 0; budget--) {
        if (!injected && plan.inject && sent >= plan.inject.at) {
          batch += plan.inject.raw;
          injected = true;
        }
        if (plan.limit !== null && sent >= plan.limit) {
          ended = 'limit';
          break;
        }
        const token = plan.source.next();
        if (token === null) {
          ended = 'natural';
          break;
        }
        batch += token.tool
          ? encoder.toolCall({ index: token.tool.index, ...(token.tool.open ? { open: token.tool.open } : {}), arguments: token.text })
          : token.reasoning
            ? encoder.reasoning(token.text)
            : encoder.content(token.text, context.logprobs ? (token.logprob ?? healthyLogprob(sent)) : undefined);
        sent++;
      }
      if (ended !== null && !injected && plan.inject) {
        batch += plan.inject.raw;
        injected = true;
      }
      record.tokensSent = sent;
      const flowing = batch.length === 0 || write(batch);
      if (ended !== null) return end(ended);
      if (!flowing) {
        await pause(-1);
      } else if (rate > 0) {
        const nextDue = start + (sent * 1000) / rate;
        await pause(Math.max(MIN_TICK_MS, Math.ceil(nextDue - performance.now())));
      } else {
        await pause(0);
      }
    }
  };

  const end = async (how: 'natural' | 'limit'): Promise<void> => {
    const ending = plan.ending;
    switch (ending.type) {
      case 'finish': {
        let tail = encoder.finish(how === 'natural' ? (plan.naturalFinish ?? 'stop') : 'length');
        if (context.includeUsage && plan.usage) tail += encoder.usage(usage(context.promptTokens, sent, defects));
        finishWith(tail + encoder.done());
        return;
      }
      case 'error-event':
        finishWith(encoder.error ? encoder.error(ending.error) : `data: ${JSON.stringify({ error: ending.error })}\n\n${encoder.done()}`);
        return;
      case 'stall':
        // Stay tracked: close() or the client leaving ends it.
        return;
      case 'cut': {
        // Let what was written reach the kernel first, or destroy() would drop it.
        const socket = res.socket;
        while (!stopped && socket && socket.writableLength > 0) await pause(MIN_TICK_MS);
        if (stopped) return;
        serverEnded = true;
        stop();
        res.destroy();
        return;
      }
    }
  };

  function finishWith(tail: string): void {
    if (stopped) return;
    serverEnded = true;
    res.end(held === null ? tail : held.join('') + tail);
    record.finished = true;
    stop();
  }

  pump().catch(() => {
    // A bug in a scenario must not take the simulator down; the client sees a cut.
    serverEnded = true;
    stop();
    res.destroy();
  });
}

/**
 * A generation answered as one chat.completion body (stream false, or fault-json).
 * It arrives after the time the tokens would have taken to stream at the set rate.
 */
export function respondCompletion(plan: GenerationPlan, context: ResponseContext): void {
  const { res, record, tokensPerSecond: rate } = context;
  const started = performance.now();
  let content = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  let tokens = 0;
  let natural = false;
  // An endless generation never completes, so its body is never sent: a hang, as for a stall.
  const hang = plan.limit === null || plan.ending.type === 'stall';
  if (!hang) {
    for (; plan.limit === null || tokens < plan.limit; tokens++) {
      const token = plan.source.next();
      if (token === null) {
        natural = true;
        break;
      }
      if (token.tool?.open) toolCalls.push({ ...token.tool.open, arguments: token.text });
      else if (token.tool) (toolCalls[toolCalls.length - 1] as ToolCall).arguments += token.text;
      else if (token.reasoning) reasoning += token.text;
      else content += token.text;
    }
  }

  let serverEnded = false;
  let timer: NodeJS.Timeout | null = null;
  const untrack = context.track(() => {
    serverEnded = true;
    if (timer) clearTimeout(timer);
    res.destroy();
  });
  res.on('close', () => {
    if (!serverEnded) {
      const generating = performance.now() - started - plan.headerDelayMs;
      const generated = rate > 0 ? Math.floor((Math.max(0, generating) * rate) / 1000) : tokens;
      record.clientClosedAtToken = Math.min(generated, tokens);
    }
    if (timer) clearTimeout(timer);
    untrack();
  });
  if (hang) return;

  const send = (): void => {
    timer = null;
    serverEnded = true;
    untrack();
    record.tokensSent = tokens;
    if (plan.ending.type === 'cut') {
      res.destroy();
      return;
    }
    let body: string;
    if (plan.inject) body = plan.inject.raw.replace(/^data: /, '').trim();
    else if (plan.ending.type === 'error-event') body = JSON.stringify({ error: plan.ending.error });
    else {
      const defects = context.defects ?? NO_DEFECTS;
      const finish = natural ? (plan.naturalFinish ?? 'stop') : 'length';
      const counted = usage(context.promptTokens, tokens, defects);
      if (context.api)
        body = apiCompletionBody(
          context.api,
          context.identity,
          { content, reasoning, toolCalls },
          finish,
          counted,
          encoderOptions(defects),
        );
      else body = completionBody(context.identity, { content, reasoning, toolCalls }, finish, counted, encoderOptions(defects));
    }
    record.status = 200;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
    record.finished = true;
  };
  const delay = plan.headerDelayMs + (rate > 0 ? (tokens * 1000) / rate : 0);
  timer = setTimeout(send, delay);
}

function usage(promptTokens: number, completionTokens: number, defects: Defects): Usage {
  // usage-wrong-total: the total leaves the prompt out
  const total = defects.has('usage-wrong-total') ? completionTokens : promptTokens + completionTokens;
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: total };
}

/**
 * An ordinary logprob for token n of healthy text (deterministic): about a quarter of the tokens
 * near-certain (> -0.01), the rest spread down to about -4, a mean near -1.3 as sampled prose has.
 */
export function healthyLogprob(n: number): number {
  const x = (Math.imul(n + 1, 2654435761) >>> 0) / 4294967296;
  return x < 0.25 ? -0.002 * x : -(0.05 + 3.5 * (x - 0.25) ** 1.3);
}
