/// <reference types="vite/client" />

// Lingui catalogs: the vite plugin compiles an imported .po file into its messages.
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
