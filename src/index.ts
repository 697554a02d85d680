/**
 * The library entry of coherency-exporter: the text analyzer on its own, for scripts, CI
 * gates and notebooks that want the same verdict the daemon exports.
 */
export { analyzeText, createStreamAnalyzer, isCertainFail } from './core/analyzeText.js';
export type { AnalyzeOptions, StreamAnalyzer, StreamAnalyzerOptions } from './core/analyzeText.js';
export type { Analysis, TextMetrics, Verdict } from './core/analysisTypes.js';
export { DEFAULT_THRESHOLDS, type Thresholds } from './core/thresholds.js';
export { analyzeCapture, type CaptureAnalysis, type CaptureChannel } from './core/analyzeCapture.js';
export { formatReport } from './core/formatReport.js';
export { FINDING_KINDS, type Finding, type FindingKind, type Severity } from './core/finding.js';
