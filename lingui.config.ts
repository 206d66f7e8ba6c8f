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
        '<rootDir>/src/features/repos',
        '<rootDir>/src/features/application',
        '<rootDir>/src/features/front',
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
    { path: '<rootDir>/locales/repos/{locale}', include: ['<rootDir>/src/features/repos'] },
    { path: '<rootDir>/locales/application/{locale}', include: ['<rootDir>/src/features/application'] },
    // The public face (front pages, partners, assessment and insurance): marketing copy, reviewed on its own.
    { path: '<rootDir>/locales/front/{locale}', include: ['<rootDir>/src/features/front'] },
    { path: '<rootDir>/locales/gpt/{locale}', include: ['<rootDir>/src/features/gpt'] },
    {
      // Legal documents (terms, privacy) are long and reviewed separately.
      path: '<rootDir>/locales/legal/{locale}',
      include: ['<rootDir>/src/features/legal'],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
