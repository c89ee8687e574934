import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { validateEndpointBadge } from "../core/badge/validate.ts";
import { validateOsvRecord } from "../core/osv/validate.ts";
import type { Db } from "../db/types.ts";
import { listAdvisoriesByRepo } from "../repositories/advisories-read.repository.ts";
import { listBadges } from "../repositories/badges.repository.ts";
import { listRepos } from "../repositories/repos.repository.ts";

type WrittenOutput = { osv: number; badges: number; invalid: string[] };

/**
 * Writes every advisory to <out>/osv/<id>.json and every badge to <out>/badges/<owner>/<name>/<metric>.json,
 * validating each (OSV schema; shields endpoint format). Both folders are emptied first.
 */
export async function writeOutputs(db: Db, outDir: string): Promise<WrittenOutput> {
  const result: WrittenOutput = { osv: 0, badges: 0, invalid: [] };
  const osvDir = join(outDir, "osv");
  const badgeDir = join(outDir, "badges");
  await rm(osvDir, { recursive: true, force: true });
  await rm(badgeDir, { recursive: true, force: true });
  await mkdir(osvDir, { recursive: true });
  for (const repo of await listRepos(db)) {
    for (const advisory of await listAdvisoriesByRepo(db, repo.id)) {
      const check = validateOsvRecord(advisory.record);
      if (!check.valid) result.invalid.push(`osv/${advisory.id}.json: ${check.errors.join("; ")}`);
      await writeFile(join(osvDir, `${advisory.id}.json`), `${JSON.stringify(advisory.record, null, 2)}\n`);
      result.osv += 1;
    }
    const [owner = "", name = ""] = repo.name.split("/");
    for (const badge of await listBadges(db, repo.id)) {
      const check = validateEndpointBadge(badge.json);
      const rel = join("badges", owner, name, `${badge.metric}.json`);
      if (!check.valid) result.invalid.push(`${rel}: ${check.errors.join("; ")}`);
      await mkdir(join(badgeDir, owner, name), { recursive: true });
      await writeFile(join(outDir, rel), `${JSON.stringify(badge.json, null, 2)}\n`);
      result.badges += 1;
    }
  }
  return result;
}
