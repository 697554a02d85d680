/**
 * Histogram buckets. Latency buckets are vLLM's own (vllm/engine/metrics), so the
 * client-side view of this exporter lines up with the server's histograms.
 */
export const TTFT_BUCKETS_SECONDS = [
  0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560,
];
export const E2E_BUCKETS_SECONDS = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];
export const INTER_TOKEN_BUCKETS_SECONDS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
export const OUTPUT_TOKEN_BUCKETS = [16, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768];
export const TOKENS_PER_SECOND_BUCKETS = [1, 5, 10, 20, 40, 60, 80, 100, 150, 200, 300, 500, 1000, 2000, 5000];
/** For 0..1 ratios: fine steps at the low end, where collapse lives. */
export const RATIO_BUCKETS = [0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.8, 1];
export const RUN_LENGTH_BUCKETS = [1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128, 512];
export const CHAR_SPAN_BUCKETS = [0, 64, 256, 1024, 4096, 16384, 65536, 262144];

/*
 * Coarse buckets for `metrics.detail: basic` (the default). A probe runs every few minutes, so a
 * target x probe sees tens of samples an hour, not thousands of requests: a quantile over an hour
 * rests on a dozen observations, and steps finer than ~2-2.5x between bounds only add series that
 * never fill. Each set covers what separates healthy from broken for its figure, and no more; the
 * fine sets above stay for `metrics.detail: full`.
 */

/** Whole-sample duration: a short probe in seconds up to a 16k-token generation at ~20 tokens/s. */
export const BASIC_E2E_BUCKETS_SECONDS = [1, 2.5, 5, 10, 25, 60, 150, 400, 1000];
/**
 * First token and the largest gap inside a sample: both are "how long did the user wait". Below
 * 0.1 s nobody notices (and client-side timing cannot tell); above 30 s it is an outage.
 */
export const BASIC_LATENCY_BUCKETS_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Decode speed: a swapped-out CPU model to a fast hosted API. */
export const BASIC_TOKENS_PER_SECOND_BUCKETS = [5, 10, 20, 40, 80, 160, 320, 1000];
/** Output length in steps of 4x: enough to tell "stopped early" from "ran to maxTokens". */
export const BASIC_OUTPUT_TOKEN_BUCKETS = [64, 256, 1024, 4096, 16384, 65536];
/** gzip ratio: collapse below 0.1, suspicious to 0.2, healthy prose 0.3-0.45, tiny outputs above 0.5. */
export const BASIC_COMPRESSION_RATIO_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 1];
