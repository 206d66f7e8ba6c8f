import { parseArgs } from 'node:util';
import { openDatabase } from '../server/db/database.ts';
import { readEnv } from '../server/env.ts';
import { scoreDb } from '../server/score/schema.ts';
import { scoreService } from '../server/score/service.ts';
import { generateDemoData, hasDemoData, removeDemoData } from '../server/score/demo.ts';
import { importHistory } from '../server/score/import.ts';

/**
 * Score data tasks on the database the server uses (DATABASE_URL or DATA_DIR):
 *   node scripts/score.ts demo --enterprises 20000 [--seed 20240801]   (npm run demo:data -- …)
 *   node scripts/score.ts demo --remove
 *   node scripts/score.ts import <file.jsonl>                           (npm run score:import -- …)
 *   node scripts/score.ts recompute [--full]                            (npm run score:recompute)
 * Demo data replaces earlier demo data and never touches real rows.
 */
const USAGE = 'usage: score.ts demo --enterprises N [--seed S] | demo --remove | import <file.jsonl> | recompute [--full]';

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { enterprises: { type: 'string' }, seed: { type: 'string' }, remove: { type: 'boolean' }, full: { type: 'boolean' } },
  });
  const env = readEnv();
  const { db, dialect } = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  const sdb = scoreDb(db);
  const service = scoreService(db, dialect);
  try {
    if (command === 'demo') {
      if (values.remove) {
        console.log(`removed ${await removeDemoData(sdb)} demo enterprises`);
        return;
      }
      const count = Number(values.enterprises ?? '2000');
      const seed = Number(values.seed ?? '20240801');
      if (!Number.isInteger(count) || count < 1 || count > 200_000) throw new Error('--enterprises must be a whole number from 1 to 200000');
      if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
      const started = performance.now();
      if (await hasDemoData(sdb)) {
        const removed = await removeDemoData(sdb);
        console.log(`replaced ${removed} earlier demo enterprises`);
      }
      const stats = await generateDemoData(sdb, dialect, { enterprises: count, seed });
      console.log(`demo data: ${stats.enterprises} enterprises, ${stats.repositories} repositories, ${stats.developers} developers, ${stats.contributions} contributions, ${stats.assets} assets, ${stats.activated} activated (generated in ${stats.generateMs} ms, written in ${stats.writeMs} ms)`);
      const scored = await service.recompute();
      console.log(`scores: ${scored.enterprises} enterprises, ${scored.weeks} enterprise-weeks, ${scored.links} links in ${scored.ms} ms`);
      console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s (${dialect})`);
    } else if (command === 'import') {
      const file = positionals[0];
      if (!file) throw new Error(USAGE);
      const stats = await importHistory(sdb, dialect, file);
      console.log(`imported ${JSON.stringify(stats)}`);
      const scored = await service.recompute();
      console.log(`scores: ${scored.enterprises} enterprises (${scored.full} from scratch), ${scored.ms} ms`);
    } else if (command === 'recompute') {
      const scored = await service.recompute({ full: values.full });
      console.log(`scores: ${JSON.stringify(scored)}`);
    } else {
      throw new Error(USAGE);
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
