import { DEFAULT_MAX_BYTES } from '../client/streamTypes.js';
import type { ProbeConfig } from '../config/types.js';

/**
 * SSE bytes one output token may take: vLLM sends 150-350 per token, more with usage or
 * logprobs in every chunk; 1 KiB leaves room for reasoning models' extra fields.
 */
export const BYTES_PER_TOKEN = 1024;

/** The byte cap on one response of a probe: its maxResponseBytes, else scaled from maxTokens (8 MiB at least). */
export function responseByteCap(probe: Pick<ProbeConfig, 'maxTokens' | 'maxResponseBytes'>): number {
  return probe.maxResponseBytes ?? Math.max(DEFAULT_MAX_BYTES, probe.maxTokens * BYTES_PER_TOKEN);
}
