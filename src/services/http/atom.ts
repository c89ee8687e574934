import { escapeHtml as x } from "../../core/text/escape.ts";

type Entry = { id: string; modified: string; record: Record<string, unknown> };

/** An Atom 1.0 feed of advisories, newest first; every value from a record is XML-escaped. */
export function renderAtom(entries: Entry[], baseUrl: string, updated: Date | null): string {
  const items = entries.map((e) => {
    const r = e.record;
    const title = typeof r.summary === "string" ? r.summary : e.id;
    const details = typeof r.details === "string" ? r.details : "";
    const published = typeof r.published === "string" ? r.published : e.modified;
    const withdrawn = typeof r.withdrawn === "string" ? " (withdrawn)" : "";
    return `  <entry>
    <id>${x(`${baseUrl}/osv/${e.id}.json`)}</id>
    <title>${x(`${e.id}: ${title}${withdrawn}`)}</title>
    <updated>${x(e.modified)}</updated>
    <published>${x(published)}</published>
    <link rel="alternate" type="application/json" href="${x(`${baseUrl}/osv/${e.id}.json`)}"/>
    <content type="text">${x(details)}</content>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${x(`${baseUrl}/osv/feed.atom`)}</id>
  <title>hubwatch advisories</title>
  <updated>${(updated ?? new Date(0)).toISOString()}</updated>
  <link rel="self" href="${x(`${baseUrl}/osv/feed.atom`)}"/>
  <author><name>hubwatch</name></author>
${items.join("\n")}
</feed>
`;
}
