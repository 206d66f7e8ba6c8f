// Entry of the baseline build (no SIMD): the single-stream core only.
export * from './sha256';
