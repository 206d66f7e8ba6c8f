/** pdf.js ships no types for its worker module; the packed CLI hands it to pdf.js whole (bin/provena-standalone.ts). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
