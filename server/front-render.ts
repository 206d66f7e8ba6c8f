import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyRequest } from 'fastify';
import type { DeploymentConfig } from '../core/config.ts';
import type { PublicFiguresDto } from '../core/partners.ts';
import { BOOT_DATA_ID, bootDataJson } from '../core/boot.ts';

/**
 * Server rendering of the public pages in the static serving path: /, /government,
 * /partners and /insurance are answered with public.html (their own entry, which hydrates them;
 * index.html, the app's entry, in a build without it) holding the page's HTML (drawn by
 * the SSR bundle Vite builds beside the app, APP_DIR-ssr/render.js, from the same
 * components), its title, description, Open Graph tags and hreflang alternates, and the
 * configuration and figures the app then starts from. Without the bundle, or if it fails,
 * the plain index.html is served: the app renders the page itself.
 */
export const FRONT_LOCALES = ['zh', 'en', 'ja'] as const;
type Locale = (typeof FRONT_LOCALES)[number];
type FrontPath = '/' | '/government' | '/partners' | '/insurance';
type RenderModule = {
  render(input: { path: FrontPath; locale: Locale; config: DeploymentConfig; figures: PublicFiguresDto | null }): Promise<{ html: string; title: string; description: string; htmlLang: string }>;
};
type Manifest = Record<string, { file: string; css?: string[]; imports?: string[]; src?: string }>;

const OG_LOCALE: Record<Locale, string> = { zh: 'zh_CN', en: 'en_US', ja: 'ja_JP' };
const CACHE_MS = 60_000;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (FRONT_LOCALES as readonly string[]).includes(value);
}

/** The page's language: ?lang= (the hreflang links), else the visitor's last choice (cookie), else Chinese. */
export function localeOf(request: FastifyRequest): { locale: Locale; isExplicit: boolean } {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.lang;
  if (isLocale(fromQuery)) return { locale: fromQuery, isExplicit: true };
  const fromCookie = request.cookies?.locale;
  if (isLocale(fromCookie)) return { locale: fromCookie, isExplicit: false };
  return { locale: 'zh', isExplicit: false };
}

/**
 * `<link rel="expect" blocking="render">` on the page's heading (its largest text, the largest
 * contentful paint): the browser's first frame then waits until the parser has reached and closed
 * the heading, instead of painting the navigation bar first and the heading one or more long
 * layouts later (under 4x CPU throttling the first paint came 500 to 1000 ms before the heading's).
 * Browsers without it ignore the link.
 */
function expectHeading(html: string): string {
  const id = /<h1\b[^>]*\bid="([^"]+)"/.exec(html)?.[1];
  return id ? `<link rel="expect" href="#${escapeHtml(id)}" blocking="render">` : '';
}

export class FrontRenderer {
  private module: Promise<RenderModule | null> | null = null;
  private readonly cache = new Map<string, { at: number; html: string }>();
  private readonly appDir: string;
  private readonly ssrFile: string;
  private readonly config: DeploymentConfig;
  private readonly publicUrl: string;
  private readonly figures: () => Promise<PublicFiguresDto>;
  private readonly log: (error: unknown) => void;

  constructor(opts: { appDir: string; config: DeploymentConfig; publicUrl: string; figures: () => Promise<PublicFiguresDto>; log: (error: unknown) => void }) {
    this.appDir = opts.appDir;
    this.ssrFile = path.join(`${opts.appDir.replace(/[/\\]+$/, '')}-ssr`, 'render.js');
    this.config = opts.config;
    this.publicUrl = opts.publicUrl;
    this.figures = opts.figures;
    this.log = opts.log;
  }

  private load(): Promise<RenderModule | null> {
    this.module ??= fs.existsSync(this.ssrFile)
      ? (import(pathToFileURL(this.ssrFile).href) as Promise<RenderModule>).catch((error: unknown) => {
          this.log(error);
          return null;
        })
      : Promise.resolve(null);
    return this.module;
  }

  /** The stylesheets of the public pages' chunk, from Vite's manifest (its script loads with the app, after the first paint). */
  private chunkLinks(template: string): string {
    const file = path.join(this.appDir, '.vite', 'manifest.json');
    if (!fs.existsSync(file)) return '';
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    const chunk = manifest['src/features/front/front-chunk.ts'];
    if (!chunk) return '';
    const css = new Set<string>();
    const seen = new Set<string>();
    const visit = (key: string) => {
      const entry = manifest[key];
      if (!entry || seen.has(key)) return;
      seen.add(key);
      for (const c of entry.css ?? []) css.add(c);
      for (const i of entry.imports ?? []) visit(i);
    };
    visit('src/features/front/front-chunk.ts');
    return [...css].filter((c) => !template.includes(`/${c}"`)).map((c) => `<link rel="stylesheet" crossorigin href="/${c}">`).join('');
  }

  private readonly stylesheets = new Map<string, string>();

  /** `<link rel="stylesheet" href="/assets/…">` of the template replaced by the stylesheet's text (built files, read once). */
  private inlineStylesheets(template: string): string {
    return template.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
      let css = this.stylesheets.get(file);
      if (css === undefined) {
        const full = path.join(this.appDir, file);
        if (!fs.existsSync(full)) return tag;
        css = fs.readFileSync(full, 'utf8').replace(/<\/style/gi, '<\\/style');
        this.stylesheets.set(file, css);
      }
      return `<style data-href="/${file}">${css}</style>`;
    });
  }

  /** The server-rendered document, or null when there is no SSR bundle (the caller sends index.html). */
  async page(pagePath: FrontPath, locale: Locale): Promise<string | null> {
    const key = `${pagePath}|${locale}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.html;
    const mod = await this.load();
    if (!mod) return null;
    try {
      const figures = await this.figures();
      const out = await mod.render({ path: pagePath, locale, config: this.config, figures });
      // No module preloads on a server-rendered page: the app starts after the first paint
      // (front-boot.js below), and thirty-odd route-split chunks fetched from the <head> would
      // compete with the stylesheet the first paint waits for.
      // The public pages' own entry (public.html, src/public-main.tsx: the pages without the
      // dashboard) where the build has it; a build without it serves them with the app's entry.
      const publicTemplate = path.join(this.appDir, 'public.html');
      const hasPublicEntry = fs.existsSync(publicTemplate);
      const rawTemplate = fs.readFileSync(hasPublicEntry ? publicTemplate : path.join(this.appDir, 'index.html'), 'utf8').replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
      // The public entry's stylesheets go into the page itself: the first paint then waits for no
      // request (under 4x CPU throttling a render-blocking stylesheet cost 300 ms and more).
      const template = hasPublicEntry ? this.inlineStylesheets(rawTemplate) : rawTemplate;

      const url = (l: Locale) => `${this.publicUrl}${pagePath}?lang=${l}`;
      const head = [
        `<meta name="description" content="${escapeHtml(out.description)}">`,
        `<link rel="canonical" href="${escapeHtml(url(locale))}">`,
        ...FRONT_LOCALES.map((l) => `<link rel="alternate" hreflang="${l}" href="${escapeHtml(url(l))}">`),
        `<link rel="alternate" hreflang="x-default" href="${escapeHtml(`${this.publicUrl}${pagePath}`)}">`,
        `<meta property="og:type" content="website">`,
        `<meta property="og:site_name" content="${escapeHtml(this.config.webTitle)}">`,
        `<meta property="og:title" content="${escapeHtml(out.title)}">`,
        `<meta property="og:description" content="${escapeHtml(out.description)}">`,
        `<meta property="og:url" content="${escapeHtml(url(locale))}">`,
        `<meta property="og:locale" content="${OG_LOCALE[locale]}">`,
        ...FRONT_LOCALES.filter((l) => l !== locale).map((l) => `<meta property="og:locale:alternate" content="${OG_LOCALE[l]}">`),
        `<meta property="og:image" content="${escapeHtml(`${this.publicUrl}/${this.config.navbarLogoImageName}`)}">`,
        hasPublicEntry ? '' : this.chunkLinks(template),
        expectHeading(out.html),
      ].join('\n    ');
      const boot = `<script type="application/json" id="${BOOT_DATA_ID}">${bootDataJson({ config: this.config, figures })}</script>`;
      const html = template
        .replace(/<html lang="[^"]*">/, `<html lang="${out.htmlLang}" data-mantine-color-scheme="light">`)
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(out.title)}</title>\n    ${head}`)
        .replace('<div id="root"></div>', `<div id="root">${out.html}</div>${boot}`)
        // The app's entry starts after the first paint (public/front-boot.js): a module script that
        // is already loaded may run before the browser paints, and the page would wait for it.
        .replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/, (_m, src: string) => `<script defer src="/front-boot.js" data-entry="${escapeHtml(src)}"></script>`);
      this.cache.set(key, { at: Date.now(), html });
      return html;
    } catch (error) {
      this.log(error);
      return null;
    }
  }
}
