import { html, type SafeHtml } from "./html.ts";

// The safetensors `__metadata__` of a weights change, before and after. Keys and values come from the
// repo's headers, so they are only ever interpolated (escaped).

type ShardMeta = { path: string; metadata: unknown };
export type WeightMetadata = { before: ShardMeta[]; after: ShardMeta[] };

const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** key -> value over all shards; shards that disagree show each distinct value, joined by " | ". */
function merge(shards: ShardMeta[]): Map<string, string> {
  const seen = new Map<string, Set<string>>();
  for (const s of shards) {
    if (!s.metadata || typeof s.metadata !== "object" || Array.isArray(s.metadata)) continue;
    for (const [k, v] of Object.entries(s.metadata)) {
      const set = seen.get(k) ?? new Set<string>();
      seen.set(k, set.add(text(v)));
    }
  }
  return new Map([...seen].map(([k, set]) => [k, [...set].join(" | ")]));
}

/** Rows of the header metadata keys whose value differs; nothing when the metadata is unchanged. */
export function renderWeightMetadata(m: WeightMetadata | null | undefined): SafeHtml {
  if (!m) return html``;
  const a = merge(m.before);
  const b = merge(m.after);
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort().filter((k) => a.get(k) !== b.get(k));
  if (keys.length === 0) return html``;
  const cell = (cls: string, v: string | undefined) =>
    v === undefined ? html`<td class="muted">–</td>` : html`<td class="${cls}"><code>${v}</code></td>`;
  return html`<h4>Header metadata (<code>__metadata__</code>)</h4>
<table class="header-meta"><thead><tr><th>Key</th><th>Before</th><th>After</th></tr></thead><tbody>
${keys.map((k) => html`<tr><td><code>${k}</code></td>${cell("del", a.get(k))}${cell("add", b.get(k))}</tr>`)}
</tbody></table>`;
}
