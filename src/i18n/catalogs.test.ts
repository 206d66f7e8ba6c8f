import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales.ts';

/**
 * The app loads every area's catalog of a locale into one message table (Object.assign in
 * i18n.ts), and lingui derives a message's id from its source text: the same English text in
 * two areas is one id, so two different translations of it would let whichever catalog loads
 * last decide what every screen shows. These checks keep the catalogs complete and consistent.
 */
const root = path.resolve(import.meta.dirname, '../../locales');

type Entry = { id: string; translation: string };

/** The messages of a .po file (id = msgctxt + EOT + msgid, as gettext keys them), without the header and obsolete entries. */
function readCatalog(file: string): Entry[] {
  const unquote = (lines: string) => JSON.parse(`"${[...lines.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join('')}"`) as string;
  const entries: Entry[] = [];
  for (const block of fs.readFileSync(file, 'utf8').split(/\n\s*\n/)) {
    const match = /^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)/m.exec(block);
    if (!match || /^#~/m.test(block)) continue;
    const msgid = unquote(match[1]);
    const context = /^msgctxt ((?:".*"\n?)+)/m.exec(block);
    if (msgid) entries.push({ id: context ? `${unquote(context[1])}\u0004${msgid}` : msgid, translation: unquote(match[2]) });
  }
  return entries;
}

function catalogsOf(locale: string): string[] {
  const files = [path.join(root, `${locale}.po`)];
  for (const area of fs.readdirSync(root, { withFileTypes: true })) {
    const file = path.join(root, area.name, `${locale}.po`);
    if (area.isDirectory() && fs.existsSync(file)) files.push(file);
  }
  return files;
}

describe('message catalogs', () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale}: every message is translated`, () => {
      const missing = catalogsOf(locale).flatMap((file) => readCatalog(file).filter((e) => e.translation === '').map((e) => `${path.relative(root, file)}: ${e.id}`));
      expect(missing).toEqual([]);
    });

    it(`${locale}: a message shared by several areas is translated the same way in each`, () => {
      const seen = new Map<string, { file: string; translation: string }>();
      const clashes: string[] = [];
      for (const file of catalogsOf(locale)) {
        for (const entry of readCatalog(file)) {
          const earlier = seen.get(entry.id);
          if (earlier && earlier.translation !== entry.translation) {
            clashes.push(`"${entry.id}": ${path.relative(root, earlier.file)} "${earlier.translation}" vs ${path.relative(root, file)} "${entry.translation}"`);
          }
          if (!earlier) seen.set(entry.id, { file, translation: entry.translation });
        }
      }
      expect(clashes).toEqual([]);
    });
  }
});
