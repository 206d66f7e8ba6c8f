import { Anchor, createTheme, darken, defaultVariantColorsResolver, parseThemeColor, type CSSVariablesResolver, type MantineColorsTuple, type VariantColorsResolver } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#e8f0ff', '#cfdeff', '#9dbaff', '#6894fd', '#3c74fb', '#1c64f2', '#0f55e0', '#0046c9', '#003db4', '#00349f',
];

/**
 * Badges, buttons and alerts of every colour reach WCAG AA contrast: with primaryShade 5 a
 * filled green or orange is white on a pale fill (2:1), and a light variant's text on its
 * tint is 3.8:1 at badge size. Other colours than the brand fill with shade 8 and write
 * light variants in shade 9 darkened, everywhere at once.
 */
function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The first of the colour's shades from 7 (then shade 9 darkened step by step) that white text reads on at 4.5:1. */
function fillForWhiteText(shades: MantineColorsTuple): string {
  const isReadable = (hex: string) => 1.05 / (relativeLuminance(hex) + 0.05) >= 4.5;
  for (const shade of [shades[7], shades[8], shades[9]]) if (isReadable(shade)) return shade;
  let color = shades[9];
  for (let step = 1; step <= 10 && !isReadable(color); step++) color = darken(shades[9], step * 0.05);
  return color;
}

const variantColorResolver: VariantColorsResolver = (input) => {
  const resolved = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.color === 'brand' || parsed.color === 'dark') return resolved;
  const shades = input.theme.colors[parsed.color]!;
  if (input.variant === 'filled') {
    const fill = fillForWhiteText(shades);
    return { ...resolved, background: fill, hover: darken(fill, 0.1), color: '#fff' };
  }
  if (input.variant === 'light') return { ...resolved, color: darken(shades[9], 0.25) };
  return resolved;
};

/**
 * CJK fonts are listed by language in app.css (:lang rules) so that Japanese text is
 * drawn with Japanese glyph forms and Chinese with simplified Chinese ones.
 */
export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  primaryShade: 5,
  variantColorResolver,
  defaultRadius: 'md',
  fontFamily: 'var(--app-font-family)',
  headings: { fontFamily: 'var(--app-font-family)', fontWeight: '650' },
  components: {
    // A link inside a sentence must not be told from the text by colour alone (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
  },
});

/**
 * Mantine's light "dimmed" (gray.6, #868e96) and placeholder (gray.5) texts fall below the
 * WCAG AA 4.5:1 contrast on white and on the footer's gray.0: both are darkened here, once,
 * for every screen. #5c636b is 6.0:1 on white and 5.7:1 on #f8f9fa; #6c737b is 4.8:1 on white.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636b', '--mantine-color-placeholder': '#6c737b' },
  dark: {},
});
