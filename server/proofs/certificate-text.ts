/**
 * Every word a proof certificate prints, in the three languages the product speaks. The
 * certificate is written in its registrant's language, with the other two as a compact
 * line under each label, so that a court clerk or a partner abroad reads it without help.
 * (The browser's catalogues are lingui's; the server renders PDFs without them, so the
 * certificate keeps its own small table here, reviewed with the rest of the copy.)
 */
import type { CertificateLocale } from '../locale.ts';

export type Trilingual = Record<CertificateLocale, string>;

export const CERTIFICATE_TEXT = {
  title: { zh: '数字资产存证证书', en: 'Digital Asset Proof Certificate', ja: 'デジタル資産存在証明書' },
  asset: { zh: '登记的资产', en: 'Registered asset', ja: '登録された資産' },
  size: { zh: '文件大小', en: 'File size', ja: 'ファイルサイズ' },
  fileHash: { zh: '文件指纹（SHA-256）', en: 'File fingerprint (SHA-256)', ja: 'ファイル指紋（SHA-256）' },
  dna: { zh: '资产 DNA', en: 'Asset DNA', ja: '資産 DNA' },
  registeredAt: { zh: '登记时间', en: 'Registered at', ja: '登録日時' },
  block: { zh: '区块地址', en: 'Block address', ja: 'ブロックアドレス' },
  enterprise: { zh: '登记企业', en: 'Registered by', ja: '登録企業' },
  issuedAt: { zh: '签发时间', en: 'Issued at', ja: '発行日時' },
  expiresAt: { zh: '有效期至', en: 'Valid until', ja: '有効期限' },
  platformKey: { zh: '平台签名密钥', en: 'Platform signing key', ja: 'プラットフォーム署名鍵' },
  /** The PDF signature's /Reason (shown in a reader's signature panel). */
  signatureReason: { zh: '平台签发的存证证书：签名后任何改动都会使签名失效', en: 'Proof certificate issued by the platform: any change after signing breaks this signature', ja: 'プラットフォームが発行した存在証明書：署名後の変更はすべて署名を無効にします' },
  proves: {
    zh: '本证书证明：上述企业于登记时间在本平台登记了指纹为上述值的文件；登记记录已写入只可追加、由平台签名的公开账本，此后无法被修改或删除而不被发现。',
    en: 'This certificate proves that the enterprise above registered, at the time shown, a file with the fingerprint above; the registration is in a public, append-only ledger signed by the platform, and cannot be changed or removed since without detection.',
    ja: 'この証明書は、上記の企業が記載の日時に、上記の指紋を持つファイルを本プラットフォームに登録したことを証明します。登録はプラットフォームが署名した公開の追記専用台帳に記録され、その後に変更・削除すれば必ず検出されます。',
  },
  notProves: {
    zh: '它不公开文件内容，也不证明文件的作者身份或在登记之前的存在。',
    en: 'It does not disclose the file, nor prove authorship or existence before registration.',
    ja: 'ファイルの内容は公開されず、著作者であることや登録前の存在は証明しません。',
  },
  howToCheck: {
    zh: '如何核验：打开下方网址或扫描二维码，选择原始文件和本 PDF；全部校验在您的浏览器中完成，文件不会上传。',
    en: 'How to check: open the address below or scan the QR code, then choose the original file and this PDF; every check runs in your browser and the file is not uploaded.',
    ja: '確認方法：下のアドレスを開くか QR コードを読み取り、元のファイルとこの PDF を選んでください。すべての確認はブラウザー内で行われ、ファイルはアップロードされません。',
  },
  offline: {
    zh: '本 PDF 内嵌机器可读的证明包，无需联网也可用命令行工具核验。',
    en: 'This PDF carries a machine-readable proof package: it can also be checked offline with a command-line tool.',
    ja: 'この PDF には機械可読の証明パッケージが含まれ、オフラインでもコマンドラインツールで確認できます。',
  },
  scan: { zh: '扫码核验', en: 'Scan to verify', ja: 'スキャンして確認' },
  verifyAt: { zh: '核验网址', en: 'Verify at', ja: '確認先' },
  explorer: { zh: '区块浏览器', en: 'In the public ledger', ja: '公開台帳' },
} satisfies Record<string, Trilingual>;

/** The asset kinds of §3 (core/assets.ts ASSET_TYPES order) and the ledger kinds without a type. */
export const ASSET_TYPE_TEXT: Trilingual[] = [
  { zh: '作品', en: 'Creative work', ja: '著作物' },
  { zh: '创意设计', en: 'Creative design', ja: 'クリエイティブデザイン' },
  { zh: '工业设计', en: 'Industrial design', ja: '工業デザイン' },
  { zh: '代码', en: 'Source code', ja: 'ソースコード' },
  { zh: '研究成果', en: 'Research', ja: '研究成果' },
  { zh: '数据', en: 'Data', ja: 'データ' },
  { zh: '签名文件', en: 'Signed file', ja: '署名済みファイル' },
  { zh: '其他', en: 'Other', ja: 'その他' },
];
export const VAULT_FILE_TEXT: Trilingual = { zh: '保险箱文件', en: 'Vault file', ja: '金庫のファイル' };
/** A source-code commit: the registered "file" is the commit's canonical record (docs/proof-format.md). */
export const COMMIT_TEXT: Trilingual = { zh: '源代码提交记录', en: 'Source-code commit record', ja: 'ソースコードのコミット記録' };
export const REPO_PROJECT_TEXT: Trilingual = { zh: '源代码项目', en: 'Source-code project', ja: 'ソースコードプロジェクト' };
export const COMMIT_DETAIL_TEXT = {
  project: { zh: '项目', en: 'Project', ja: 'プロジェクト' },
  commit: { zh: '提交 ID', en: 'Commit id', ja: 'コミット ID' },
  treeDigest: { zh: '文件树指纹（SHA-256）', en: 'Tree digest (SHA-256)', ja: 'ツリー指紋（SHA-256）' },
  authorTime: { zh: '作者时间', en: 'Author time', ja: '作成日時' },
} satisfies Record<string, Trilingual>;

/** Bytes in the units people read (base 1024), with the exact count. */
export function formatSize(bytes: number, locale: CertificateLocale): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const exact = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : locale).format(bytes);
  const byteWord = locale === 'en' ? 'bytes' : locale === 'ja' ? 'バイト' : '字节';
  return unit === 0 ? `${exact} ${byteWord}` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]} (${exact} ${byteWord})`;
}

/** The other two languages, in a fixed order, for the compact line under each label. */
export function otherLocales(locale: CertificateLocale): CertificateLocale[] {
  return (['zh', 'en', 'ja'] as const).filter((l) => l !== locale);
}
