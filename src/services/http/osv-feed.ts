import { strToU8, zipSync } from "fflate";
import type { Db } from "../../db/types.ts";
import { advisoriesFingerprint, listAllAdvisories } from "../../repositories/advisories-feed.repository.ts";

type Feed = {
  /** Quoted ETag shared by all.zip, modified_id.csv and feed.atom for one state of the store. */
  etag: string;
  lastModified: Date | null;
  zip: Buffer;
  csv: string;
  rows: { id: string; modified: string; record: Record<string, unknown> }[];
};

// One feed build per store state; rebuilt when the advisory count or newest modification changes.
const cache = new WeakMap<Db, Feed>();

/** The bulk feed as OSV.dev publishes it: all.zip of `{id}.json`, modified_id.csv newest first. */
export async function loadFeed(db: Db): Promise<Feed> {
  const fp = await advisoriesFingerprint(db);
  const etag = `"osv-${fp.n}-${fp.latest?.getTime() ?? 0}"`;
  const hit = cache.get(db);
  if (hit && hit.etag === etag) return hit;
  const all = await listAllAdvisories(db);
  const rows = all.map((a) => ({ id: a.id, modified: String(a.record.modified), record: a.record }));
  const files: Record<string, Uint8Array> = {};
  for (const r of rows) files[`${r.id}.json`] = strToU8(JSON.stringify(r.record, null, 2));
  const zip = Buffer.from(zipSync(files, { level: 6, mtime: fp.latest ?? new Date(0) }));
  const csv = rows.map((r) => `${r.modified},${r.id}\n`).join("");
  const feed = { etag, lastModified: fp.latest, zip, csv, rows };
  cache.set(db, feed);
  return feed;
}
