import { isFloating, parseRepoId } from "./repo-id.ts";
import type { FoundReference, PinEdit } from "./types.ts";

/** `hf://owner/name[@revision]/...` (huggingface_hub's file system); `hf://datasets/...` is not a model. */
const HF_FS = /hf:\/\/([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)(?:@([^/\s"'`)\]]+))?/g;

/**
 * `https://huggingface.co/owner/name`, optionally `/resolve|blob|tree|raw|commit/REV`, also `hf.co` and
 * `huggingface.co/api/models/...`. Not a subdomain (`cdn-lfs.huggingface.co`) nor a longer host
 * (`huggingface.co.example`): the host must stand alone and be followed by `/`.
 */
const HUB_LINK =
  /(?<![\w.@/-])(?:https?:\/\/)?(?:www\.)?(?:huggingface\.co|hf\.co)\/(?:api\/models\/)?([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)(?:\/(resolve|blob|tree|raw|commit)\/([^/\s"'`)\]#?]+))?/g;

/** Owner and name of a match, trailing sentence punctuation and `.git` dropped. */
function repoOf(owner: string, rawName: string): { repo: string; nameLength: number } | null {
  const name = rawName.replace(/\.git$/, "").replace(/\.+$/, "");
  const repo = parseRepoId(`${owner}/${name}`);
  return repo ? { repo, nameLength: name.length } : null;
}

function decoded(rev: string): string {
  try {
    return decodeURIComponent(rev);
  } catch {
    return rev;
  }
}

function hfFileSystem(text: string): FoundReference[] {
  const out: FoundReference[] = [];
  for (const m of text.matchAll(HF_FS)) {
    const parsed = repoOf(m[1] ?? "", m[2] ?? "");
    if (!parsed) continue;
    const start = m.index + "hf://".length;
    const end = start + (m[1]?.length ?? 0) + 1 + parsed.nameLength;
    const rev = m[3] ? decoded(m[3]) : null;
    let pin: PinEdit | undefined;
    if (!m[3]) pin = { start: end, end, before: "@", after: "" };
    else if (m[3] && isFloating(rev))
      pin = { start: end + 1, end: end + 1 + m[3].length, before: "", after: "" };
    const found: FoundReference = {
      start,
      end,
      repo: parsed.repo,
      revision: rev,
      syntax: "url",
      context: "hf://",
    };
    if (pin) found.pin = pin;
    out.push(found);
  }
  return out;
}

function hubLinks(text: string): FoundReference[] {
  const out: FoundReference[] = [];
  for (const m of text.matchAll(HUB_LINK)) {
    const [whole, owner = "", name = "", kind, rawRev] = m;
    const parsed = repoOf(owner, name);
    if (!parsed) continue;
    const start = m.index + whole.indexOf(`${owner}/${name}`);
    const end = start + owner.length + 1 + parsed.nameLength;
    const rev = rawRev ? decoded(rawRev) : null;
    const found: FoundReference = {
      start,
      end,
      repo: parsed.repo,
      revision: rev,
      syntax: "url",
      context: "huggingface.co link",
    };
    if (kind && rawRev && isFloating(rev) && kind !== "commit") {
      const revStart = m.index + whole.length - rawRev.length;
      found.pin = { start: revStart, end: revStart + rawRev.length, before: "", after: "" };
    }
    out.push(found);
  }
  return out;
}

/** Model references in links: `hf://` paths and links to model repos on the Hub, in any kind of file. */
export function findUrlReferences(text: string): FoundReference[] {
  if (!text.includes("hf://") && !text.includes("huggingface.co") && !text.includes("hf.co/")) return [];
  return [...hfFileSystem(text), ...hubLinks(text)];
}
