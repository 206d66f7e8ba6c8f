import type { Db } from '../db/database.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import type { GptAttachment, GptCitation } from '../../core/gpt.ts';
import type { ErrorKey } from '../../core/errors.ts';
import { canSeeEnterpriseData } from '../../core/enterprise.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';
import { normalizeDigest, verifyCertificate, withCheck, type Check, type Verdict } from '../../core/ledger/package.ts';
import { isProofStatusGenerated } from '../../core/vault.ts';
import { extractPackageNode } from '../proofs/extract.ts';
import { visibleAssets } from '../services/assets.ts';
import { creditSummary, listMovements } from '../services/credits.ts';
import type { HelpLocale } from './help-content.ts';
import { visibleApplications } from '../services/applications.ts';
import type { ApplicationState } from '../../core/applications.ts';
import type { CreditKind } from '../../core/credits.ts';
import { proofStatusColumn } from '../proofs/proof-status-sql.ts';

/**
 * The assistant's tools over the caller's own data. Every tool runs with the
 * caller's session: their user, their current enterprise and their §6 role, exactly as the
 * screens do (assets and vault files through the same visibility rules, credits of their own
 * account, vault activity only for roles 1, 2 and 3). Whatever engine asks (the built-in
 * rules or an outside model's tool call), it gets only what the caller could see.
 */
export type ToolContext = {
  db: Db;
  config: DeploymentConfig;
  userId: number;
  enterpriseId: number;
  role: number;
  locale: HelpLocale;
  attachment?: GptAttachment;
  /** An outside model asks: file names, metadata and vault data only when the deployment allows. */
  redactEnterpriseData: boolean;
};

export type ToolResult = {
  /** What the model reads (JSON). */
  data: unknown;
  /** What the built-in engine says (markdown, in the caller's language). */
  text: string;
  citations: GptCitation[];
};

export type Tool = {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Whether the caller may use it at all (vault activity: §6 viewers only). */
  isAllowed(ctx: ToolContext): boolean;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult>;
};

type L = Record<HelpLocale, string>;
const say = (ctx: ToolContext, l: L) => l[ctx.locale];

function when(ctx: ToolContext, ms: number): string {
  const tag = ctx.locale === 'zh' ? 'zh-CN' : ctx.locale === 'ja' ? 'ja-JP' : 'en-GB';
  return new Intl.DateTimeFormat(tag, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Shanghai', timeZoneName: 'short' }).format(new Date(ms));
}

/** Escapes what markdown would read as syntax in a user-chosen name. */
function md(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);
}

type Registration = {
  kind: 'asset' | 'vault_file';
  name: string;
  dna: string;
  registered_at: number;
  status: number;
  issued_at: number | null;
  expires_at: number | null;
  project_id: number | null;
  project_name: string | null;
};

function linkOf(r: Registration): string {
  return r.kind === 'asset' ? `/dashboard/asset/detail/${r.dna}` : `/dashboard/vault/project/${r.project_id}`;
}

function citationOf(r: Registration): GptCitation {
  return { kind: r.kind, title: r.name, link: linkOf(r), dna: r.dna, proof_at: isProofStatusGenerated(r.status) ? r.issued_at : null, registered_at: r.registered_at };
}

function statusText(ctx: ToolContext, r: Registration): string {
  if (!isProofStatusGenerated(r.status)) return say(ctx, { zh: '证书生成中', en: 'proof generating', ja: '証明書を生成中' });
  const at = r.issued_at ? when(ctx, r.issued_at) : '';
  return say(ctx, { zh: `证书已于 ${at} 生成`, en: `proof generated ${at}`, ja: `証明書は ${at} に生成済み` });
}

function lineOf(ctx: ToolContext, r: Registration): string {
  const where = r.kind === 'vault_file' ? say(ctx, { zh: `（保险箱项目 ${md(r.project_name ?? '')}）`, en: ` (vault project ${md(r.project_name ?? '')})`, ja: `（金庫プロジェクト ${md(r.project_name ?? '')}）` }) : '';
  return `- [${md(r.name)}](${linkOf(r)})${where} · DNA \`${r.dna}\` · ${say(ctx, { zh: '登记于', en: 'registered', ja: '登録' })} ${when(ctx, r.registered_at)} · ${statusText(ctx, r)}`;
}

/** What the model may read of a registration: without enterprise data, no names. */
function modelView(ctx: ToolContext, r: Registration, i: number) {
  return {
    kind: r.kind,
    name: ctx.redactEnterpriseData ? `[${r.kind} ${i + 1}]` : r.name,
    ...(r.kind === 'vault_file' && !ctx.redactEnterpriseData ? { project: r.project_name } : {}),
    dna: r.dna,
    registered_at: new Date(r.registered_at).toISOString(),
    proof: isProofStatusGenerated(r.status) ? 'generated' : 'generating',
    proof_generated_at: r.issued_at && isProofStatusGenerated(r.status) ? new Date(r.issued_at).toISOString() : null,
    link: linkOf(r),
  };
}

function escapeLike(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The caller's registrations (assets, and vault files when allowed), newest first. */
async function registrations(ctx: ToolContext, filter: { keyword?: string; dna?: string; limit: number }): Promise<Registration[]> {
  const viewer = { userId: ctx.userId, role: ctx.role };
  let assets = visibleAssets(ctx.db, ctx.enterpriseId, viewer).select(['a.name', 'a.dna', 'a.created_at', proofStatusColumn('pr'), 'pr.issued_at', 'pr.expires_at']);
  if (filter.dna) assets = assets.where('a.dna', '=', filter.dna);
  if (filter.keyword) assets = assets.where((eb) => eb(eb.fn('lower', ['a.name']), 'like', escapeLike(filter.keyword!.toLowerCase())));
  const assetRows = await assets.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(filter.limit).execute();
  const out: Registration[] = assetRows.map((r) => ({
    kind: 'asset',
    name: r.name,
    dna: r.dna,
    registered_at: Number(r.created_at),
    status: Number(r.status),
    issued_at: r.issued_at === null ? null : Number(r.issued_at),
    expires_at: r.expires_at === null ? null : Number(r.expires_at),
    project_id: null,
    project_name: null,
  }));
  // Vault file names are vault data: an outside model without the deployment's leave never sees them.
  if (!ctx.redactEnterpriseData || filter.dna) {
    let files = ctx.db
      .selectFrom('vault_files as f')
      .innerJoin('vault_projects as p', 'p.id', 'f.project_id')
      .leftJoin('proofs as pr', 'pr.dna', 'f.dna')
      .select(['f.name', 'f.dna', 'f.created_at', 'f.project_id', 'p.name as project_name', proofStatusColumn('pr'), 'pr.issued_at', 'pr.expires_at'])
      .where('f.enterprise_id', '=', ctx.enterpriseId);
    if (!canSeeEnterpriseData(ctx.role)) files = files.where('p.owner_user_id', '=', ctx.userId);
    if (filter.dna) files = files.where('f.dna', '=', filter.dna);
    if (filter.keyword) files = files.where((eb) => eb(eb.fn('lower', ['f.name']), 'like', escapeLike(filter.keyword!.toLowerCase())));
    const fileRows = await files.orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(filter.limit).execute();
    out.push(
      ...fileRows.map((r) => ({
        kind: 'vault_file' as const,
        name: r.name,
        dna: r.dna,
        registered_at: Number(r.created_at),
        status: Number(r.status),
        issued_at: r.issued_at === null ? null : Number(r.issued_at),
        expires_at: r.expires_at === null ? null : Number(r.expires_at),
        project_id: Number(r.project_id),
        project_name: r.project_name,
      })),
    );
  }
  return out.sort((a, b) => b.registered_at - a.registered_at).slice(0, filter.limit);
}

const searchRegistrations: Tool = {
  name: 'search_my_registrations',
  description: "Search the caller's registered digital assets and vault files (newest first). With no keyword, the newest ones (e.g. 'my latest proof').",
  parameters: {
    type: 'object',
    properties: {
      keyword: { type: 'string', description: 'part of the file name; omit for the newest' },
      limit: { type: 'integer', minimum: 1, maximum: 10, description: 'how many (default 5)' },
    },
  },
  isAllowed: () => true,
  async run(ctx, args) {
    const keyword = typeof args.keyword === 'string' && args.keyword.trim() ? args.keyword.trim().slice(0, 100) : undefined;
    const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(10, Math.max(1, args.limit)) : 5;
    const found = await registrations(ctx, { keyword, limit });
    if (found.length === 0) {
      const text = keyword
        ? say(ctx, { zh: `没有找到名称包含“${md(keyword)}”的、您有权查看的登记。`, en: `None of the registrations you can see has "${md(keyword)}" in its name.`, ja: `名前に「${md(keyword)}」を含む、閲覧できる登録はありません。` })
        : say(ctx, { zh: '您还没有可以查看的登记。可以在“数字资产”中登记第一个文件。', en: 'You have no registrations you can see yet. Register your first file in Digital assets.', ja: '閲覧できる登録はまだありません。「デジタル資産」で最初のファイルを登録できます。' });
      return { data: { registrations: [] }, text, citations: [] };
    }
    const head = keyword
      ? say(ctx, { zh: `名称包含“${md(keyword)}”的登记：`, en: `Registrations with "${md(keyword)}" in the name:`, ja: `名前に「${md(keyword)}」を含む登録：` })
      : found.length === 1 || limit === 1
        ? say(ctx, { zh: '您最新的登记：', en: 'Your latest registration:', ja: '最新の登録：' })
        : say(ctx, { zh: '您最近的登记：', en: 'Your latest registrations:', ja: '最近の登録：' });
    return { data: { registrations: found.map((r, i) => modelView(ctx, r, i)) }, text: [head, ...found.map((r) => lineOf(ctx, r))].join('\n'), citations: found.map(citationOf) };
  },
};

const proofStatus: Tool = {
  name: 'proof_status',
  description: "A proof's status by its digital asset DNA (pv followed by 20 characters), among the registrations the caller may see.",
  parameters: { type: 'object', properties: { dna: { type: 'string', description: 'the DNA, e.g. pvabcdefghijklmnopqrst' } }, required: ['dna'] },
  isAllowed: () => true,
  async run(ctx, args) {
    const dna = typeof args.dna === 'string' ? args.dna.trim() : '';
    const notFound = { data: { found: false }, citations: [], text: say(ctx, { zh: `没有找到 DNA 为 \`${md(dna)}\` 且您有权查看的登记（“数字资产 ID 不正确”）。请核对 DNA，或确认它属于您当前的企业。`, en: `There is no registration with DNA \`${md(dna)}\` that you can see ("The digital asset ID is incorrect"). Check the DNA, or that it belongs to your current company.`, ja: `DNA \`${md(dna)}\` の閲覧できる登録はありません（「デジタル資産 ID が正しくありません」）。DNA と現在の企業を確認してください。` }) };
    if (!DNA_PATTERN.test(dna)) return notFound;
    const [r] = await registrations({ ...ctx, redactEnterpriseData: ctx.redactEnterpriseData }, { dna, limit: 1 });
    if (!r) return notFound;
    const expiry = r.expires_at ? say(ctx, { zh: `，有效期至 ${when(ctx, r.expires_at)}`, en: `, valid until ${when(ctx, r.expires_at)}`, ja: `、有効期限 ${when(ctx, r.expires_at)}` }) : '';
    const text = `${lineOf(ctx, r)}${expiry}`;
    return { data: { found: true, registration: modelView(ctx, r, 0), expires_at: r.expires_at ? new Date(r.expires_at).toISOString() : null }, text, citations: [citationOf(r)] };
  },
};

/** Every credit movement kind, so that a kind added later fails the typecheck here instead of showing its raw key. */
const KIND_NAMES: Record<CreditKind, L> = {
  top_up: { zh: '充值', en: 'top-up', ja: 'チャージ' },
  allocate: { zh: '成员充值', en: 'member top-up', ja: 'メンバーへのチャージ' },
  reclaim: { zh: '收回', en: 'taken back', ja: '回収' },
  asset_registration: { zh: '资产登记', en: 'asset registration', ja: '資産登録' },
  vault_file_registration: { zh: '保险箱文件登记', en: 'vault file registration', ja: '金庫ファイル登録' },
  commit_registration: { zh: '源代码提交登记', en: 'source-code commit registration', ja: 'ソースコードのコミット登録' },
  application_file_registration: { zh: '外部应用文件登记', en: 'application file registration', ja: '外部アプリのファイル登録' },
};

const credits: Tool = {
  name: 'credit_balance',
  description: "The caller's own credit balance (available, consumed), the prices, and the newest movements of their own account.",
  parameters: { type: 'object', properties: { history: { type: 'integer', minimum: 0, maximum: 20, description: 'how many recent movements (default 5)' } } },
  isAllowed: () => true,
  async run(ctx, args) {
    const n = typeof args.history === 'number' && Number.isInteger(args.history) ? Math.min(20, Math.max(0, args.history)) : 5;
    const summary = await creditSummary(ctx.db, ctx.config, { enterpriseId: ctx.enterpriseId, userId: ctx.userId, seesEnterprise: false, isAdmin: false });
    // Only the caller's own account: another member's movements never reach the assistant.
    const moves = n ? await listMovements(ctx.db, ctx.enterpriseId, { userId: ctx.userId, account: 'member' }, { page: 1, size: n }) : { items: [] };
    const lines = moves.items.map((m) => {
      const kind = KIND_NAMES[m.kind as CreditKind]?.[ctx.locale] ?? m.kind;
      const what = m.detail && !ctx.redactEnterpriseData ? ` · ${md(m.detail)}` : '';
      return `- ${when(ctx, m.created_at)} · ${kind} · ${m.delta > 0 ? '+' : ''}${m.delta}${what}`;
    });
    const head = say(ctx, {
      zh: `您的可用积分为 **${summary.available}**，已消耗 **${summary.consumed}**。登记一个资产 ${summary.prices.asset} 积分，一个保险箱文件 ${summary.prices.vault_file} 积分。`,
      en: `You have **${summary.available}** credits available and have consumed **${summary.consumed}**. An asset registration costs ${summary.prices.asset}, a vault file ${summary.prices.vault_file}.`,
      ja: `利用可能なクレジットは **${summary.available}**、消費済みは **${summary.consumed}** です。資産の登録は ${summary.prices.asset}、金庫ファイルは ${summary.prices.vault_file} クレジットです。`,
    });
    const historyHead = lines.length ? `\n\n${say(ctx, { zh: '最近的积分记录：', en: 'Recent movements:', ja: '最近の利用履歴：' })}\n${lines.join('\n')}` : '';
    return {
      data: {
        available: summary.available,
        consumed: summary.consumed,
        prices: summary.prices,
        credits_required: summary.integral_required,
        movements: moves.items.map((m) => ({ kind: m.kind, delta: m.delta, balance_after: m.balance_after, at: new Date(m.created_at).toISOString(), ...(ctx.redactEnterpriseData ? {} : { detail: m.detail }) })),
      },
      text: head + historyHead,
      citations: [{ kind: 'credit', title: say(ctx, { zh: '积分', en: 'Credits', ja: 'クレジット' }), link: '/dashboard/credit' }],
    };
  },
};

const VAULT_ACTIONS: Record<string, L> = {
  vault_unlocked: { zh: '解锁保险箱', en: 'unlocked the vault', ja: '金庫を解除' },
  vault_locked: { zh: '锁定保险箱', en: 'locked the vault', ja: '金庫をロック' },
  project_created: { zh: '创建项目', en: 'created a project', ja: 'プロジェクトを作成' },
  project_updated: { zh: '修改项目', en: 'edited a project', ja: 'プロジェクトを編集' },
  file_registered: { zh: '登记文件', en: 'registered a file', ja: 'ファイルを登録' },
  proof_downloaded: { zh: '下载证书', en: 'downloaded a certificate', ja: '証明書をダウンロード' },
};

const vaultActivity: Tool = {
  name: 'vault_activity',
  description: "The company's newest vault actions (unlocks, projects, files registered). Only administrators, super administrators and the confidentiality officer may use it.",
  parameters: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 20 } } },
  // §6: the vault log of the whole company is for roles 1, 2 and 3; an outside model sees it only with the deployment's leave.
  isAllowed: (ctx) => canSeeEnterpriseData(ctx.role) && !ctx.redactEnterpriseData,
  async run(ctx, args) {
    if (!vaultActivity.isAllowed(ctx)) {
      return {
        data: { allowed: false },
        citations: [],
        text: say(ctx, { zh: '只有管理员、超级管理员和保密员可以查看企业的保险箱操作记录。您可以在保险箱中查看自己项目的日志。', en: 'Only administrators, super administrators and the confidentiality officer can see the company’s vault activity. You can see your own projects’ logs in the vault.', ja: '企業の金庫の操作記録は管理者・スーパー管理者・機密管理者のみ閲覧できます。自分のプロジェクトのログは金庫で確認できます。' }),
      };
    }
    const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(20, Math.max(1, args.limit)) : 8;
    const rows = await ctx.db
      .selectFrom('vault_logs as l')
      .leftJoin('vault_projects as p', 'p.id', 'l.project_id')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .select(['l.action', 'l.created_at', 'l.project_id', 'p.name as project_name', 'u.real_name', 'u.name as user_name'])
      .where('l.enterprise_id', '=', ctx.enterpriseId)
      .orderBy('l.id', 'desc')
      .limit(limit)
      .execute();
    if (rows.length === 0) return { data: { actions: [] }, citations: [], text: say(ctx, { zh: '保险箱还没有操作记录。', en: 'The vault has no activity yet.', ja: '金庫の操作記録はまだありません。' }) };
    const lines = rows.map((r) => `- ${when(ctx, Number(r.created_at))} · ${md(r.real_name || r.user_name)} · ${VAULT_ACTIONS[r.action]?.[ctx.locale] ?? r.action}${r.project_name ? ` · ${md(r.project_name)}` : ''}`);
    return {
      data: { actions: rows.map((r) => ({ action: r.action, at: new Date(Number(r.created_at)).toISOString(), project: r.project_name, by: r.real_name || r.user_name })) },
      text: `${say(ctx, { zh: '最近的保险箱操作：', en: 'Recent vault activity:', ja: '最近の金庫の操作：' })}\n${lines.join('\n')}`,
      citations: [{ kind: 'vault_log', title: say(ctx, { zh: '保险箱', en: 'Vault', ja: '金庫' }), link: '/dashboard/vault' }],
    };
  },
};

/** The §8 message of each proof check, as the verification centre words it. */
const PROOF_MESSAGES: Partial<Record<ErrorKey, L>> = {
  verify_file_not_found: { zh: '原文件与存证文件不匹配', en: 'The original file and the proof file do not match', ja: '元のファイルと証明ファイルが一致しません' },
  hash_mismatch: { zh: '原文件与存证文件不匹配', en: 'The original file and the proof file do not match', ja: '元のファイルと証明ファイルが一致しません' },
  no_proof_package: { zh: '存证文件缺失或无效', en: 'The proof file is missing or invalid', ja: '証明ファイルがないか、無効です' },
  gzip_invalid_header: { zh: '存证文件格式错误', en: 'The proof file format is wrong', ja: '証明ファイルの形式が正しくありません' },
  parse_pdf_failed: { zh: '证书无法解析', en: 'The certificate could not be parsed', ja: '証明書を解析できません' },
  file_hashes_inconsistent: { zh: '存证验证失败', en: 'Proof verification failed', ja: '証明の検証に失敗しました' },
  expiration_time_verification_failed: { zh: '数字资产存证文件已过期，请重新生成', en: 'The digital property proof file has expired, please regenerate it', ja: 'デジタル資産の証明ファイルは有効期限が切れています。再生成してください' },
  page_signature_invalid: { zh: '证书页面不是平台签名的页面：签名后被修改过，或没有签名', en: 'The certificate page is not the one the platform signed: it was changed after signing, or it is not signed', ja: '証明書のページはプラットフォームが署名したものではありません：署名後に変更されたか、署名がありません' },
  checkpoint_invalid: { zh: '存证中的日志检查点不是平台签名的，或不包含该区块', en: 'The log checkpoint in the proof is not signed by the platform or does not contain this block', ja: '証明内のログのチェックポイントがプラットフォームの署名ではないか、このブロックを含みません' },
  proof_signer_untrusted: { zh: '由其他平台签发：存证完好，但签名者不是您信任的平台', en: 'Issued by another platform: the proof is intact, but its signer is not a platform you trust', ja: '他のプラットフォームが発行：証明は完全ですが、署名者は信頼するプラットフォームではありません' },
  proof_not_in_ledger: { zh: '存证不在本平台账本中', en: "The proof is not in this platform's ledger", ja: '証明がこのプラットフォームの台帳にありません' },
  anchor_not_found: { zh: '锚定交易不在链上', en: 'The anchor transaction is not on the chain as the proof says', ja: 'アンカーのトランザクションがチェーン上にありません' },
};

const WHAT_TO_DO: Partial<Record<ErrorKey, L>> = {
  verify_file_not_found: { zh: '请选择登记时的原始文件：哪怕改动一个字节，指纹也会不同。', en: 'Choose the exact file you registered: one changed byte gives another fingerprint.', ja: '登録したファイルそのものを選んでください。1 バイト違うだけで指紋は変わります。' },
  no_proof_package: { zh: '请使用从资产详情下载的 PDF 证书，不要用截图、打印件或转换过的 PDF。', en: "Use the PDF certificate downloaded from the asset's page, not a screenshot, a print or a converted PDF.", ja: '資産の詳細画面からダウンロードした PDF を使い、スクリーンショットや印刷、変換した PDF は使わないでください。' },
  parse_pdf_failed: { zh: '文件已损坏或不是 PDF，请重新下载证书。', en: 'The file is damaged or not a PDF; download the certificate again.', ja: 'ファイルが壊れているか PDF ではありません。証明書を再ダウンロードしてください。' },
  expiration_time_verification_failed: { zh: '请在资产详情中重新生成证书。', en: "Regenerate the certificate from the asset's page.", ja: '資産の詳細画面で証明書を再生成してください。' },
  page_signature_invalid: { zh: '请重新下载原证书，不要编辑或另存 PDF。', en: 'Download the original certificate again and do not edit or re-save the PDF.', ja: '元の証明書を再ダウンロードし、PDF を編集・再保存しないでください。' },
  file_hashes_inconsistent: { zh: '存证包被改动过，请重新下载证书。', en: 'The proof package was altered; download the certificate again.', ja: '証明パッケージが改ざんされています。証明書を再ダウンロードしてください。' },
};

async function platformLedgerCheck(db: Db, summary: NonNullable<Verdict['summary']>): Promise<Check> {
  const { height, hash } = summary.block_address;
  const bad = (detail: string): Check => ({ id: 'platform_ledger', isOk: false, message: 'proof_not_in_ledger', detail });
  if (!Number.isSafeInteger(height) || height < 0) return bad(`block height ${height} is not a height`);
  const block = await db.selectFrom('ledger_blocks').select('hash').where('height', '=', height).executeTakeFirst();
  if (!block || block.hash !== hash) return bad(`this platform has no block ${height} with hash ${hash}`);
  const entry = DNA_PATTERN.test(summary.asset_dna) ? await db.selectFrom('ledger_entries').select('block_height').where('dna', '=', summary.asset_dna).executeTakeFirst() : undefined;
  if (!entry || entry.block_height === null || Number(entry.block_height) !== height) return bad(`block ${height} has no entry ${summary.asset_dna}`);
  return { id: 'platform_ledger', isOk: true, detail: `entry ${summary.asset_dna} is in block ${height}` };
}

const explainVerification: Tool = {
  name: 'explain_verification',
  description: 'Runs the real verifier on the proof PDF the user attached to this question (with the original file hash they gave) and reports every check and the first failure.',
  parameters: { type: 'object', properties: {} },
  isAllowed: (ctx) => Boolean(ctx.attachment),
  async run(ctx) {
    const a = ctx.attachment;
    if (!a) return { data: { attached: false }, citations: [], text: say(ctx, { zh: '请先附上 PDF 存证文件和原文件，我会运行验证并解释结果。', en: 'Attach the PDF proof and the original file first; I will run the verification and explain the result.', ja: 'PDF の証明ファイルと元のファイルを添付してください。検証を実行して結果を説明します。' }) };
    const pdf = new Uint8Array(Buffer.from(a.proof_base64, 'base64'));
    const keys = await ctx.db.selectFrom('ledger_keys').select('key_id').execute();
    const roots = await ctx.db.selectFrom('platform_roots').select('fingerprint').execute();
    const digest = normalizeDigest(a.original_hash) ?? '0'.repeat(64);
    const signed = await verifyCertificate(pdf, extractPackageNode, { fileSha256: digest, now: Date.now(), trustedKeyIds: keys.map((k) => k.key_id), trustedRootFingerprints: roots.map((r) => r.fingerprint) });
    const verdict = signed.isValid && signed.summary ? withCheck(signed, await platformLedgerCheck(ctx.db, signed.summary)) : signed;
    const checks = verdict.checks.map((c) => ({ id: c.id, ok: c.isOk, skipped: c.isSkipped ?? false, message: c.message ?? null }));
    const citation: GptCitation = { kind: 'verification', title: a.name || 'proof.pdf', link: '/verify-file', ...(verdict.summary ? { dna: verdict.summary.asset_dna, registered_at: verdict.summary.registered_at } : {}) };
    if (verdict.isValid && verdict.summary) {
      const s = verdict.summary;
      const text = say(ctx, {
        zh: `我用验证器检查了 **${md(a.name)}**：全部 ${checks.length} 项检查通过。DNA \`${s.asset_dna}\`，登记于 ${when(ctx, s.registered_at)}，区块 ${s.block_address.height}，企业 ${md(s.enterprise_name)}，有效期至 ${when(ctx, s.expired_at)}。`,
        en: `I ran the verifier on **${md(a.name)}**: all ${checks.length} checks pass. DNA \`${s.asset_dna}\`, registered ${when(ctx, s.registered_at)}, block ${s.block_address.height}, company ${md(s.enterprise_name)}, valid until ${when(ctx, s.expired_at)}.`,
        ja: `**${md(a.name)}** を検証しました：${checks.length} 項目すべて合格です。DNA \`${s.asset_dna}\`、登録 ${when(ctx, s.registered_at)}、ブロック ${s.block_address.height}、企業 ${md(s.enterprise_name)}、有効期限 ${when(ctx, s.expired_at)}。`,
      });
      return { data: { valid: true, checks, summary: { asset_dna: s.asset_dna, registered_at: new Date(s.registered_at).toISOString(), block: s.block_address.height } }, text, citations: [citation] };
    }
    const key = verdict.message ?? 'file_hashes_inconsistent';
    const message = PROOF_MESSAGES[key]?.[ctx.locale] ?? key;
    const todo = WHAT_TO_DO[key]?.[ctx.locale] ?? '';
    const passed = checks.filter((c) => c.ok).length;
    const text = say(ctx, {
      zh: `我用验证器检查了 **${md(a.name)}**：未通过。第一个失败的检查是 \`${verdict.failedCheck}\`，提示为“${message}”。${todo}（${passed} 项检查在此之前通过。）`,
      en: `I ran the verifier on **${md(a.name)}**: it does not pass. The first failed check is \`${verdict.failedCheck}\`: "${message}". ${todo} (${passed} checks passed before it.)`,
      ja: `**${md(a.name)}** を検証しました：不合格です。最初に失敗した確認は \`${verdict.failedCheck}\` で、「${message}」です。${todo}（それまでに ${passed} 項目が合格しています。）`,
    });
    return { data: { valid: false, failed_check: verdict.failedCheck, message: key, checks }, text, citations: [citation] };
  },
};

const APPLICATION_STATES: Record<ApplicationState, L> = {
  not_connected: { zh: '未连接', en: 'not connected', ja: '未接続' },
  normal: { zh: '正常', en: 'normal', ja: '正常' },
  abnormal: { zh: '异常', en: 'abnormal', ja: '異常' },
  interrupted: { zh: '数据中断', en: 'data interrupted', ja: 'データ中断' },
};

const applicationStates: Tool = {
  name: 'application_states',
  description: "The caller's external applications (all of the company's for administrators, super administrators and the confidentiality officer) with their connection state (not connected, normal, abnormal, data interrupted), since when, why, and when data last arrived.",
  parameters: { type: 'object', properties: {} },
  isAllowed: () => true,
  async run(ctx) {
    // §6 as the application screens apply it: a plain member sees only the applications they own.
    const rows = await visibleApplications(ctx.db, { userId: ctx.userId, role: ctx.role, enterpriseId: ctx.enterpriseId }).selectAll('a').orderBy('a.id').limit(50).execute();
    if (rows.length === 0) {
      return { data: { applications: [] }, citations: [], text: say(ctx, { zh: '您还没有可查看的外部应用。', en: 'You have no external applications to see.', ja: '閲覧できる外部アプリケーションはありません。' }) };
    }
    // An application's name is the company's data: an outside model reads its number unless the deployment allows names.
    const nameOf = (r: { id: number; name: string }) => (ctx.redactEnterpriseData ? `#${Number(r.id)}` : r.name);
    const lines = rows.map((r) => {
      const state = APPLICATION_STATES[r.state as ApplicationState]?.[ctx.locale] ?? r.state;
      const seen = r.last_seen_at === null ? say(ctx, { zh: '从未收到数据', en: 'never heard from', ja: 'データ未受信' }) : `${say(ctx, { zh: '最后收到', en: 'last heard', ja: '最終受信' })} ${when(ctx, Number(r.last_seen_at))}`;
      return `- ${md(nameOf(r))}: **${state}**${r.state_since === null ? '' : ` (${when(ctx, Number(r.state_since))})`} · ${seen}`;
    });
    return {
      data: { applications: rows.map((r) => ({ application: nameOf(r), state: r.state, since: r.state_since === null ? null : new Date(Number(r.state_since)).toISOString(), reason: r.state_reason, last_seen: r.last_seen_at === null ? null : new Date(Number(r.last_seen_at)).toISOString() })) },
      text: `${say(ctx, { zh: '外部应用的状态：', en: 'Your external applications:', ja: '外部アプリケーションの状態：' })}\n${lines.join('\n')}`,
      citations: rows.slice(0, 5).map((r) => ({ kind: 'application' as const, title: r.name, link: `/dashboard/application/detail/${Number(r.id)}` })),
    };
  },
};

export const TOOLS: readonly Tool[] = [searchRegistrations, proofStatus, credits, explainVerification, vaultActivity, applicationStates];

export function toolByName(name: string): Tool | undefined {
  return TOOLS.find((t) => t.name === name);
}
