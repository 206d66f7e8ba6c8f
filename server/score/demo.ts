import { sql } from 'kysely';
import { weekOf, weekStart } from '../../core/score/weeks.ts';
import type { Dialect } from '../db/dialect.ts';
import type { ScoreDb } from './schema.ts';
import { bumpDataVersion, insertMany, nextIds, syncSequences } from './store.ts';

/**
 * Demo data for the map and the score pages: enterprises with plausible Chinese and
 * English names, their repositories, developers, contributions and registered
 * assets over two to four years of weekly history, and a few shared developers
 * between enterprises of the same cluster (which is what links them on the map).
 * Every row carries is_demo = 1 (the UI labels it); real data is never touched.
 * Reproducible: the same seed and the same current week give the same data.
 */

export type DemoOptions = { enterprises: number; seed?: number; now?: number };
export type DemoStats = { enterprises: number; repositories: number; developers: number; contributions: number; assets: number; activated: number; generateMs: number; writeMs: number };

/** sfc32: a small, fast, well-distributed seeded generator. */
function random(seed: number) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

const CITIES = ['北京', '上海', '深圳', '杭州', '广州', '成都', '西安', '南京', '武汉', '苏州', '天津', '重庆', '长沙', '合肥', '厦门', '青岛', '大连', '宁波', '济南', '郑州', '福州', '无锡', '珠海', '东莞', '佛山', '昆明', '贵阳', '南昌', '沈阳', '哈尔滨'];
const CORES = ['星辰', '云帆', '智源', '数联', '海纳', '天衡', '华创', '锐思', '博远', '鼎新', '睿达', '启明', '恒信', '明德', '瑞丰', '金桥', '银河', '远景', '新锐', '卓越', '汇智', '联创', '盛世', '中科', '精诚', '宏图', '光年', '极客', '灵动', '跃迁', '蓝鲸', '青松', '紫辰', '北辰', '东方', '长风', '飞鸿', '九州', '万象', '千帆', '致远', '凌云', '华信', '智行', '澄明', '开源', '算力', '墨子', '鲲鹏', '知微'];
const TRADES = ['信息技术', '软件', '数据科技', '网络科技', '智能科技', '电子', '生物科技', '新能源', '医疗科技', '教育科技', '文化传媒', '数字科技', '机器人', '半导体', '云计算', '物联网'];
const CN_SUFFIX = ['有限公司', '股份有限公司'];
const EN_FIRST = ['Blue', 'Silver', 'North', 'Bright', 'Quantum', 'Golden', 'Red', 'Open', 'Deep', 'Clear', 'Swift', 'Iron', 'Green', 'Nova', 'Prime', 'Polar', 'Vivid', 'Lunar', 'Solar', 'Crimson', 'Atlas', 'Summit', 'Harbor', 'Cedar', 'Falcon', 'Orbit', 'Pixel', 'Vector', 'Delta', 'Echo'];
const EN_SECOND = ['Harbor', 'Peak', 'River', 'Stone', 'Bridge', 'Field', 'Wave', 'Forge', 'Grid', 'Leaf', 'Lake', 'Path', 'Spark', 'Cloud', 'Signal', 'Point', 'Gate', 'Bay', 'Ridge', 'Labs'];
const EN_TRADE = ['Software', 'Analytics', 'Data Systems', 'Robotics', 'Biotech', 'Networks', 'Semiconductor', 'Energy', 'Health Tech', 'Media', 'AI', 'Cloud', 'Security', 'Devices', 'Learning'];
const EN_SUFFIX = ['Ltd.', 'Co., Ltd.', 'Inc.', 'Technologies Ltd.'];
const REPO_A = ['core', 'web', 'api', 'data', 'ml', 'infra', 'mobile', 'billing', 'search', 'auth', 'pay', 'chat', 'map', 'iot', 'edge', 'ops', 'design', 'docs', 'vision', 'report'];
const REPO_B = ['service', 'platform', 'sdk', 'app', 'engine', 'pipeline', 'portal', 'kit', 'cli', 'server', 'console', 'lib', 'gateway', 'studio'];
const SURNAMES = ['wang', 'li', 'zhang', 'liu', 'chen', 'yang', 'zhao', 'huang', 'zhou', 'wu', 'xu', 'sun', 'hu', 'zhu', 'gao', 'lin', 'he', 'guo', 'ma', 'luo'];
const GIVEN = ['wei', 'fang', 'na', 'min', 'jing', 'lei', 'jun', 'yang', 'tao', 'ming', 'chao', 'xia', 'hua', 'ping', 'hui', 'yu', 'bo', 'lin', 'alex', 'emma', 'leo', 'mia', 'sam', 'nina'];
const ASSET_KINDS = ['code', 'research', 'data', 'creative', 'design', 'industrial', 'signed', 'other'];

export async function generateDemoData(db: ScoreDb, dialect: Dialect, options: DemoOptions): Promise<DemoStats> {
  const started = performance.now();
  const rand = random(options.seed ?? 20240801);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const logNormal = (mu: number, sigma: number) => Math.exp(mu + sigma * normal());
  const uuid = () => {
    const hex = Array.from({ length: 4 }, () => Math.floor(rand() * 4294967296).toString(16).padStart(8, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };

  const now = options.now ?? Date.now();
  const currentWeek = weekOf(now);
  const ids = await nextIds(db);
  const taken = new Set((await db.selectFrom('score_enterprises').select('name').execute()).map((r) => r.name));
  const uniqueName = (make: () => string) => {
    for (let attempt = 0; ; attempt++) {
      const base = make();
      const name = attempt < 20 ? base : `${base} ${attempt}`;
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  };

  type Ent = { id: number; founded: number; repos: { id: number; created: number }[]; team: number };
  const ents: Ent[] = [];
  const enterpriseRows: Record<string, unknown>[] = [];
  const repoRows: Record<string, unknown>[] = [];
  const assetRows: Record<string, unknown>[] = [];
  const developerRows: Record<string, unknown>[] = [];
  const contributionRows: Record<string, unknown>[] = [];
  const clusters = Math.max(1, Math.round(options.enterprises / 40));
  let activated = 0;

  for (let i = 0; i < options.enterprises; i++) {
    const isChinese = rand() < 0.7;
    const name = uniqueName(() => (isChinese ? `${pick(CITIES)}${pick(CORES)}${pick(TRADES)}${pick(CN_SUFFIX)}` : `${pick(EN_FIRST)} ${pick(EN_SECOND)} ${pick(EN_TRADE)} ${pick(EN_SUFFIX)}`));
    const id = ids.enterprise + i;
    const founded = currentWeek - 30 - Math.floor(rand() * 180);
    const repoCount = Math.max(1, Math.min(250, Math.round(logNormal(0.34, 1.45))));
    const team = Math.max(1, Math.min(1500, Math.round(repoCount * logNormal(0.9, 0.7))));
    const isActivated = rand() < 0.08;
    const activatedAt = isActivated ? now - Math.floor(rand() * 60 * 24 * 3600 * 1000) : null;
    if (isActivated) activated++;
    enterpriseRows.push({ id, uuid: uuid(), name, enterprise_id: null, activated: isActivated ? 1 : 0, activated_at: activatedAt, is_demo: 1, created_at: now, updated_at: activatedAt ?? now });
    const ent: Ent = { id, founded, repos: [], team };
    const used = new Set<string>();
    for (let r = 0; r < repoCount; r++) {
      let repoName = `${pick(REPO_A)}-${pick(REPO_B)}`;
      if (used.has(repoName)) repoName = `${repoName}-${r + 1}`;
      used.add(repoName);
      const created = founded + Math.floor(rand() * rand() * (currentWeek - founded));
      const repoId = ids.repository + repoRows.length;
      ent.repos.push({ id: repoId, created });
      repoRows.push({ id: repoId, score_enterprise_id: id, name: repoName, created_at: weekStart(created) + Math.floor(rand() * 6 * 86_400_000), is_demo: 1 });
    }
    const assets = Math.round(repoCount * logNormal(0.3, 0.7));
    for (let a = 0; a < assets; a++) {
      const week = founded + Math.floor(rand() * (currentWeek - founded + 1));
      assetRows.push({ id: ids.asset + assetRows.length, score_enterprise_id: id, kind: pick(ASSET_KINDS), registered_at: weekStart(week) + Math.floor(rand() * 7 * 86_400_000) });
    }
    ents.push(ent);
  }

  // Developers: each joins an enterprise for a while and works on one to three of its
  // repositories; a few also work on a repository of another enterprise, mostly in the
  // same cluster (shared developers are what link enterprises on the map).
  const clusterMembers: number[][] = Array.from({ length: clusters }, () => []);
  ents.forEach((_, k) => clusterMembers[k % clusters].push(k));
  const contribute = (repo: { id: number; created: number }, developer: number, join: number, leave: number, rate: number) => {
    const from = Math.max(join, repo.created);
    const to = Math.min(leave, currentWeek);
    if (to < from) return;
    const weeks = to - from + 1;
    const commits = Math.max(1, Math.round(rate * weeks));
    contributionRows.push({ id: ids.contribution + contributionRows.length, repository_id: repo.id, developer_id: developer, from_at: weekStart(from), to_at: weekStart(to) + 6 * 86_400_000, commits });
  };
  ents.forEach((ent, k) => {
    for (let t = 0; t < ent.team; t++) {
      const developer = ids.developer + developerRows.length;
      developerRows.push({ id: developer, name: `${pick(GIVEN)}.${pick(SURNAMES)}${Math.floor(rand() * 100)}`, is_demo: 1 });
      const join = ent.founded + Math.floor(rand() * (currentWeek - ent.founded));
      const leave = join + 10 + Math.floor(logNormal(4, 0.7));
      const rate = logNormal(-0.6, 0.8);
      const count = 1 + Math.floor(rand() * rand() * 3);
      for (let r = 0; r < count; r++) contribute(pick(ent.repos), developer, join, leave, rate);
      if (rand() < 0.2 && ents.length > 1) {
        const pool = rand() < 0.85 ? clusterMembers[k % clusters] : null;
        let other = pool ? pool[Math.floor(rand() * pool.length)] : Math.floor(rand() * ents.length);
        if (other === k) other = (k + 1) % ents.length;
        const otherEnt = ents[other];
        const side = Math.max(join, otherEnt.founded);
        contribute(pick(otherEnt.repos), developer, side, side + 4 + Math.floor(rand() * 60), rate * 0.5);
      }
    }
  });
  const generateMs = performance.now() - started;

  const writeStarted = performance.now();
  await db.transaction().execute(async (trx) => {
    const t = trx as unknown as ScoreDb;
    await insertMany(t, 'score_enterprises', enterpriseRows);
    await insertMany(t, 'score_repositories', repoRows);
    await insertMany(t, 'score_developers', developerRows);
    await insertMany(t, 'score_contributions', contributionRows);
    await insertMany(t, 'score_assets', assetRows);
    await syncSequences(t, dialect);
    await bumpDataVersion(t);
  });
  return {
    enterprises: enterpriseRows.length,
    repositories: repoRows.length,
    developers: developerRows.length,
    contributions: contributionRows.length,
    assets: assetRows.length,
    activated,
    generateMs: Math.round(generateMs),
    writeMs: Math.round(performance.now() - writeStarted),
  };
}

/** Removes every demo row (cascades to repositories, contributions, assets, series and links). */
export async function removeDemoData(db: ScoreDb): Promise<number> {
  const result = await db.deleteFrom('score_enterprises').where('is_demo', '=', 1).executeTakeFirst();
  await db.deleteFrom('score_developers').where('is_demo', '=', 1).execute();
  await bumpDataVersion(db);
  return Number(result.numDeletedRows ?? 0);
}

/** Whether the database already holds demo data. */
export async function hasDemoData(db: ScoreDb): Promise<boolean> {
  const row = await db.selectFrom('score_enterprises').select(sql<number>`1`.as('one')).where('is_demo', '=', 1).limit(1).executeTakeFirst();
  return Boolean(row);
}

/**
 * Opens the database at the given place, writes demo data and scores it, then closes
 * it: used by the e2e server (E2E_DEMO_ENTERPRISES) before it boots.
 */
export async function seedDemoDatabase(opts: { databaseUrl?: string; dataDir: string; enterprises: number; seed?: number }): Promise<DemoStats> {
  const { openDatabase } = await import('../db/database.ts');
  const { scoreDb } = await import('./schema.ts');
  const { scoreService } = await import('./service.ts');
  const { db, dialect } = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir });
  try {
    const stats = await generateDemoData(scoreDb(db), dialect, { enterprises: opts.enterprises, seed: opts.seed });
    await scoreService(db, dialect).recompute();
    return stats;
  } finally {
    await db.destroy();
  }
}
