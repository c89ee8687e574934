import { NO_CONFIG } from "../../services/estimate-revision.ts";
import { html, type SafeHtml } from "./html.ts";

// What a page says for the normal states that are not results: an initial commit without a config,
// a revision not fetched yet, a gated or vanished repo. Stored errors may carry the Hub URL they
// were raised for (an internal address behind HF_ENDPOINT): pages show them without any URL.

const GATED_TEXT = "needs a token with access (HF_TOKEN)";

/** Removes URLs from a stored message ("Hub 401 for http://10.0.0.5/api/...: x" -> "Hub 401: x"). */
export function withoutUrls(message: string): string {
  return message
    .replace(/\s+for\s+[a-z][a-z0-9+.-]*:\/\/\S+?(:\s|$)/gi, "$1")
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, "(address hidden)")
    .trim();
}

/** One line on the repo's Hub status; null when the last poll went fine. */
export function repoStatusNote(status: string, detail: string | null): SafeHtml | null {
  switch (status) {
    case "ok":
      return null;
    case "gated":
      return html`<p class="state warn" role="status"><strong>Gated:</strong> ${GATED_TEXT}. Revisions stay pending until a token that has accepted the repo's terms is set.</p>`;
    case "not_found":
      return html`<p class="state warn" role="status"><strong>Not found on the Hub:</strong> deleted, renamed or made private. The recorded history stays here.</p>`;
    default:
      return html`<p class="state warn" role="status"><strong>The Hub answered with an error</strong>${detail ? html` (${withoutUrls(detail)})` : ""}; the next poll retries.</p>`;
  }
}

const STATUS_WORDS: Record<string, string> = {
  ok: "ok",
  gated: `gated: ${GATED_TEXT}`,
  not_found: "not found on the Hub",
  error: "Hub error (retrying)",
};

/** A repo's status in a few words, for tables. */
export function repoStatusWords(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

type RevisionState = { status: string };

/** What the timeline says when a revision lists no change: why there is none. */
export function noChangesText(revision: RevisionState, repoStatus: string): SafeHtml {
  if (revision.status === "pending")
    return html`<span class="muted">not fetched yet${repoStatus === "gated" ? html` (${GATED_TEXT})` : ""}</span>`;
  if (revision.status === "failed") return html`<span class="muted">not compared (failed)</span>`;
  return html`<span class="muted">no tracked file changed</span>`;
}

type Est = { result: unknown; error: string | null } | undefined;

/**
 * The estimate's state when there is no result: not fetched yet, no config yet (an initial commit),
 * or a real failure (URLs removed). null when there is a result to show.
 */
export function estimateState(est: Est, revision: RevisionState): SafeHtml | null {
  if (est?.result) return null;
  if (revision.status === "pending") return html`<p class="muted">Not fetched yet.</p>`;
  if (est?.error === NO_CONFIG)
    return html`<p class="muted">No config yet: this revision has no <code>config.json</code> (usual for an initial commit).</p>`;
  if (est?.error) return html`<p class="bad">Estimate failed: ${withoutUrls(est.error)}</p>`;
  return html`<p class="muted">No estimate.</p>`;
}
