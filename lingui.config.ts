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
      exclude: [
        '<rootDir>/src/features/legal',
        '<rootDir>/src/features/asset',
        '<rootDir>/src/features/credit',
        '<rootDir>/src/features/search',
        '<rootDir>/src/features/home',
        '<rootDir>/src/features/vault',
        '<rootDir>/src/features/disclosure',
        '<rootDir>/src/features/map',
        '<rootDir>/src/features/gpt',
      ],
    },
    // One catalog per product area, so that areas are translated and reviewed apart.
    { path: '<rootDir>/locales/assets/{locale}', include: ['<rootDir>/src/features/asset'] },
    { path: '<rootDir>/locales/credit/{locale}', include: ['<rootDir>/src/features/credit'] },
    { path: '<rootDir>/locales/home/{locale}', include: ['<rootDir>/src/features/home', '<rootDir>/src/features/search'] },
    { path: '<rootDir>/locales/vault/{locale}', include: ['<rootDir>/src/features/vault'] },
    { path: '<rootDir>/locales/disclosure/{locale}', include: ['<rootDir>/src/features/disclosure'] },
    { path: '<rootDir>/locales/map/{locale}', include: ['<rootDir>/src/features/map'] },
    { path: '<rootDir>/locales/gpt/{locale}', include: ['<rootDir>/src/features/gpt'] },
    {
      // Legal documents (terms, privacy) are long and reviewed separately.
      path: '<rootDir>/locales/legal/{locale}',
      include: ['<rootDir>/src/features/legal'],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
