/** pdf.js's worker module, loaded into the verify worker as its in-thread message handler (verify.worker.ts). */
declare module 'pdfjs-dist/build/pdf.worker.min.mjs' {
  export const WorkerMessageHandler: unknown;
}
