// Entry of the SIMD build: the single-stream core plus the 4-lane core.
export * from './sha256';
export * from './lanes';
