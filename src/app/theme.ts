import { createTheme, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#e8f0ff', '#cfdeff', '#9dbaff', '#6894fd', '#3c74fb', '#1c64f2', '#0f55e0', '#0046c9', '#003db4', '#00349f',
];

/**
 * CJK fonts are listed by language in app.css (:lang rules) so that Japanese text is
 * drawn with Japanese glyph forms and Chinese with simplified Chinese ones.
 */
export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  primaryShade: 5,
  defaultRadius: 'md',
  fontFamily: 'var(--app-font-family)',
  headings: { fontFamily: 'var(--app-font-family)', fontWeight: '650' },
});
