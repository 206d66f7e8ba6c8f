import MiniSearch from 'minisearch';
import type { DeploymentConfig } from '../../core/config.ts';
import { HELP_ARTICLES, type HelpArticle, type HelpLocale } from './help-content.ts';

/**
 * Full-text retrieval over the help pages: one MiniSearch index per language.
 * Chinese and Japanese have no spaces between words, so a run of Han, kana or CJK
 * punctuation-free letters is cut into single characters and overlapping character
 * bigrams (存证 → 存, 证, 存证): a two-character word of the question matches its bigram
 * exactly and BM25 weighs the rarer bigrams up. Latin words and numbers are lowercased words.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]/u;
const TOKEN_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+|[\p{L}\p{N}_]+/gu;
/** Grammatical particles and question words that say nothing about the topic. */
const STOP = new Set([
  ...'的了吗呢是我你在有和与么么什怎哪个这那为何请のは が を に で と も か な です ます'.split(/\s+|/u).filter(Boolean),
  'what', 'is', 'the', 'a', 'an', 'how', 'do', 'does', 'i', 'my', 'to', 'of', 'and', 'or', 'in', 'it', 'me', 'can', 'why', 'for', 'on', 'this', 'that', 'with', 'be', 'are', 'get', 'say', 'says', 'mean', 'means',
]);

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize('NFKC').matchAll(TOKEN_RUN)) {
    const run = match[0];
    if (CJK.test(run[0] ?? '')) {
      const chars = Array.from(run);
      for (let i = 0; i < chars.length; i += 1) {
        const c = chars[i] as string;
        if (!STOP.has(c)) out.push(c);
        if (i + 1 < chars.length) out.push(c + (chars[i + 1] as string));
      }
    } else {
      const word = run.toLowerCase();
      // A plain English plural or third person ("checks", "shows") meets its stem.
      if (!STOP.has(word)) out.push(word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
    }
  }
  return out;
}

export type HelpPassage = { id: string; title: string; body: string; path: string | null; score: number };

type Doc = { id: string; title: string; body: string; keywords: string };

export type HelpIndex = {
  search(locale: HelpLocale, query: string, limit?: number): HelpPassage[];
  article(locale: HelpLocale, id: string): HelpPassage | null;
};

function fill(text: string, config: DeploymentConfig): string {
  return text.replaceAll('{asset_price}', String(config.credits.assetRegistration)).replaceAll('{vault_price}', String(config.credits.vaultFile));
}

export function buildHelpIndex(config: DeploymentConfig, articles: readonly HelpArticle[] = HELP_ARTICLES): HelpIndex {
  const byLocale = new Map<HelpLocale, { index: MiniSearch<Doc>; docs: Map<string, Doc & { path: string | null }> }>();
  for (const locale of ['zh', 'en', 'ja'] as const) {
    const index = new MiniSearch<Doc>({
      fields: ['title', 'body', 'keywords'],
      storeFields: [],
      tokenize,
      processTerm: (term) => term,
      searchOptions: { boost: { title: 2, keywords: 2 }, tokenize, processTerm: (term) => term, combineWith: 'OR' },
    });
    const docs = new Map<string, Doc & { path: string | null }>();
    for (const a of articles) {
      const doc = { id: a.id, title: a.title[locale], body: fill(a.body[locale], config), keywords: a.keywords?.[locale] ?? '', path: a.path };
      docs.set(a.id, doc);
    }
    index.addAll([...docs.values()].map(({ id, title, body, keywords }) => ({ id, title, body, keywords })));
    byLocale.set(locale, { index, docs });
  }
  return {
    search(locale, query, limit = 3) {
      const entry = byLocale.get(locale)!;
      if (tokenize(query).length === 0) return [];
      return entry.index
        .search(query)
        .slice(0, limit)
        .map((hit) => {
          const doc = entry.docs.get(String(hit.id))!;
          return { id: doc.id, title: doc.title, body: doc.body, path: doc.path, score: hit.score };
        });
    },
    article(locale, id) {
      const doc = byLocale.get(locale)!.docs.get(id);
      return doc ? { ...doc, score: 0 } : null;
    },
  };
}

/** Sentences, cut at 。！？.!? outside quotation marks (a quoted §8 message stays whole). */
export function splitSentences(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  const chars = Array.from(body);
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i] as string;
    current += c;
    if ('「『“'.includes(c)) depth += 1;
    else if ('」』”'.includes(c)) depth = Math.max(0, depth - 1);
    else if (c === '"') depth = depth > 0 && current.split('"').length % 2 === 1 ? depth - 1 : depth + 1;
    const next = chars[i + 1];
    const ends = '。！？'.includes(c) || ('.!?'.includes(c) && (next === undefined || next === ' '));
    if (ends && depth === 0) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out.length ? out : [body];
}

/** The sentences of a passage that share the most terms with the question, in their order. */
export function bestSentences(body: string, query: string, max = 3): string[] {
  const sentences = splitSentences(body);
  const terms = new Set(tokenize(query));
  const scored = sentences.map((s, i) => {
    const own = new Set(tokenize(s));
    let score = 0;
    for (const t of own) if (terms.has(t)) score += Array.from(t).length > 1 || /[a-z0-9]/.test(t) ? 2 : 0.5;
    return { s, i, score };
  });
  const chosen = scored
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i);
  return (chosen.length ? chosen : scored.slice(0, 2)).map((x) => x.s);
}
