/** pdf.js ships no types for its worker module; server/proofs/extract.ts hands it to pdf.js whole. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
