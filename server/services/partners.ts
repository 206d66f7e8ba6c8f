import type { Db } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { PARTNER_FIELDS, PUBLIC_FIGURES_TTL_MS, checkPartnerField, type PartnerContractBody, type PartnerContractDto, type PublicFiguresDto } from '../../core/partners.ts';

/**
 * Partner applications and the public figures of the front pages.
 * The figures are counted at most once a minute per process: a crowd on the front
 * page never turns into a crowd of count(*) queries.
 */
export class PublicFigures {
  private cached: { at: number; value: PublicFiguresDto } | null = null;
  private pending: Promise<PublicFiguresDto> | null = null;
  private readonly db: Db;
  private readonly ttlMs: number;
  constructor(db: Db, ttlMs = PUBLIC_FIGURES_TTL_MS) {
    this.db = db;
    this.ttlMs = ttlMs;
  }

  async get(now = Date.now()): Promise<PublicFiguresDto> {
    if (this.cached && now - this.cached.at < this.ttlMs) return this.cached.value;
    // One count at a time; callers meanwhile share it.
    this.pending ??= this.count()
      .then((value) => {
        this.cached = { at: Date.now(), value };
        return value;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  private async count(): Promise<PublicFiguresDto> {
    const one = async (table: 'ledger_entries' | 'enterprises' | 'ledger_blocks') =>
      Number((await this.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const [registrations, enterprises, blocks] = await Promise.all([one('ledger_entries'), one('enterprises'), one('ledger_blocks')]);
    return { registrations, enterprises, blocks };
  }
}

const shared = new WeakMap<Db, PublicFigures>();

/** The one cached counter of a database (the partner routes and the server-rendered pages share it). */
export function publicFiguresOf(db: Db): PublicFigures {
  let figures = shared.get(db);
  if (!figures) {
    figures = new PublicFigures(db);
    shared.set(db, figures);
  }
  return figures;
}

/** §5 partner form: every field checked, trimmed; the first failing field answers on its name. */
export function validatePartnerBody(body: Partial<Record<keyof PartnerContractBody, unknown>>): PartnerContractBody {
  const out = {} as PartnerContractBody;
  for (const field of PARTNER_FIELDS) {
    const raw = body[field];
    const value = typeof raw === 'string' ? raw : '';
    const problem = checkPartnerField(field, value);
    if (problem) throw new ApiError(problem, field);
    out[field] = value.trim();
  }
  return out;
}

export async function createPartnerContract(db: Db, body: PartnerContractBody, ip: string, now = Date.now()): Promise<number> {
  const row = await db
    .insertInto('partner_contracts')
    .values({ ...body, ip, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listPartnerContracts(db: Db, opts: { page: number; size: number }): Promise<{ items: PartnerContractDto[]; page: number; page_size: number; total: number }> {
  const total = Number((await db.selectFrom('partner_contracts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await db
    .selectFrom('partner_contracts')
    .select(['id', 'enterprise_name', 'name', 'contract_number', 'corporation', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.size)
    .offset((opts.page - 1) * opts.size)
    .execute();
  return { items: rows.map((r) => ({ ...r, created_at: Number(r.created_at) })), page: opts.page, page_size: opts.size, total };
}

export async function allPartnerContracts(db: Db): Promise<PartnerContractDto[]> {
  const rows = await db
    .selectFrom('partner_contracts')
    .select(['id', 'enterprise_name', 'name', 'contract_number', 'corporation', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
}

/** A spreadsheet cell that a spreadsheet program would run as a formula is quoted as text. */
function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const EXPORT_HEADERS = ['id', 'created_at', 'enterprise_name', 'name', 'contract_number', 'corporation'] as const;

export function exportRows(items: PartnerContractDto[]): string[][] {
  return items.map((r) => [String(r.id), new Date(r.created_at).toISOString(), r.enterprise_name, r.name, r.contract_number, r.corporation].map(neutralizeFormula));
}

/** RFC 4180 CSV with a UTF-8 BOM (so spreadsheet programs read Chinese names right). */
export function toCsv(rows: string[][]): string {
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return `\uFEFF${[[...EXPORT_HEADERS], ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

/**
 * The partner export as XLSX. Why SheetJS (@e965/xlsx, the npm republish of the SheetJS CDN
 * build 0.20.3) and not one of the maintained alternatives, reviewed against what we do:
 * - the member bulk import (src/features/enterprise/member-sheet.ts) reads .xlsx AND .xls
 *   (the upload accepts both; older Excel and WPS still save .xls), and tests write XLSX;
 *   this export writes .xlsx on the server.
 * - read-excel-file (9.x) reads .xlsx only, no .xls; write-excel-file (4.x) only writes: two
 *   packages for what one does, and .xls import would be lost (a behaviour change).
 * - exceljs (4.4.0, last release 2023) reads and writes .xlsx only, no .xls either, and
 *   brings a larger dependency tree (archiver, unzipper, saxes…) into both server and bundle.
 * SheetJS covers both formats and directions with no dependencies; it is loaded with a
 * dynamic import on both sides, so it costs nothing until a sheet is read or written.
 */
export async function toXlsx(rows: string[][]): Promise<Buffer> {
  const XLSX = await import('@e965/xlsx');
  const sheet = XLSX.utils.aoa_to_sheet([[...EXPORT_HEADERS], ...rows]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'partners');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}
