import { escapeHtml as x } from "../../core/text/escape.ts";

type Entry = { id: string; modified: string; record: Record<string, unknown> };

/** The repo and introducing sha of an advisory record (its first GIT range), for the revision page link. */
function introducedAt(r: Record<string, unknown>): { repo: string; sha: string } | null {
  const affected = (
    r.affected as { database_specific?: { repo?: unknown }; ranges?: unknown[] }[] | undefined
  )?.[0];
  const repo = affected?.database_specific?.repo;
  const events = (affected?.ranges?.[0] as { events?: { introduced?: unknown }[] } | undefined)?.events ?? [];
  const sha = events.find((e) => typeof e.introduced === "string")?.introduced;
  return typeof repo === "string" && typeof sha === "string" ? { repo, sha } : null;
}

/**
 * An Atom 1.0 feed of advisories, newest first; every value from a record is XML-escaped. Ids never
 * depend on how the feed was reached: `urn:hubwatch:...` (stable across hosts and PUBLIC_URL changes).
 * Links are absolute from `publicUrl` when it is set, else paths; each entry links to the HTML page
 * of the revision that introduced it, and to its OSV JSON.
 */
export function renderAtom(entries: Entry[], publicUrl: string | undefined, updated: Date | null): string {
  const base = publicUrl?.replace(/\/+$/, "") ?? "";
  const items = entries.map((e) => {
    const r = e.record;
    const title = typeof r.summary === "string" ? r.summary : e.id;
    const details = typeof r.details === "string" ? r.details : "";
    const published = typeof r.published === "string" ? r.published : e.modified;
    const withdrawn = typeof r.withdrawn === "string" ? " (withdrawn)" : "";
    const at = introducedAt(r);
    const page = at ? `${base}/repos/${at.repo}/revisions/${at.sha}` : `${base}/osv/${e.id}.json`;
    return `  <entry>
    <id>${x(`urn:hubwatch:advisory:${e.id}`)}</id>
    <title>${x(`${e.id}: ${title}${withdrawn}`)}</title>
    <updated>${x(e.modified)}</updated>
    <published>${x(published)}</published>
    <link rel="alternate" type="text/html" href="${x(page)}"/>
    <link rel="related" type="application/json" href="${x(`${base}/osv/${e.id}.json`)}"/>
    <content type="text">${x(details)}</content>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:hubwatch:osv:feed</id>
  <title>hubwatch advisories</title>
  <updated>${(updated ?? new Date(0)).toISOString()}</updated>
  <link rel="self" href="${x(`${base}/osv/feed.atom`)}"/>
  <author><name>hubwatch</name></author>
${items.join("\n")}
</feed>
`;
}
