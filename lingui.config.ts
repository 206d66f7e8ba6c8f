import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

export default defineConfig({
  sourceLocale: 'en',
  locales: ['zh', 'en', 'ja'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}',
      include: ['<rootDir>/src'],
      exclude: ['<rootDir>/src/features/legal'],
    },
    {
      // Legal documents (terms, privacy) are long and reviewed separately.
      path: '<rootDir>/locales/legal/{locale}',
      include: ['<rootDir>/src/features/legal'],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
