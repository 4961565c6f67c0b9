export { parseRecording, type RecordedRequest } from './recording';
export { compareAnswers, type Answer, type CompareOptions, type Difference } from './compare';
export {
  DEFAULT_REPLAY_TIMEOUT_MS,
  formatReplayReport,
  replay,
  replayReportJson,
  type ReplayOptions,
  type ReplayReport,
  type ReplayedExchange,
} from './replay';
export { ReplayInputError, ReplayMismatchError } from './errors';
