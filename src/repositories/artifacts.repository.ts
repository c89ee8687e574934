import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { type ArtifactKind, artifacts } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

type Artifact = typeof artifacts.$inferSelect;

/** sha256 hex of the UTF-8 bytes of `content`: an artifact's key. */
export function hashContent(content: string): string {
  return createHash("sha256").update(content, "utf8").digest("hex");
}

/**
 * Stores `content` once under its sha256 and returns the hash; storing the same content again (another
 * revision, another repo, a retry) is a no-op. JSON is stored as the exact text given.
 */
export async function putArtifact(ex: Executor, content: string, kind: ArtifactKind): Promise<string> {
  const hash = hashContent(content);
  await ex
    .insert(artifacts)
    .values({ hash, kind, size: Buffer.byteLength(content, "utf8"), content })
    .onConflictDoNothing({ target: artifacts.hash });
  return hash;
}

/**
 * putArtifact for several contents in one statement; returns their hashes in the order given (the same
 * content twice is stored once).
 */
export async function putArtifacts(
  ex: Executor,
  items: { content: string; kind: ArtifactKind }[],
): Promise<string[]> {
  const hashes = items.map((i) => hashContent(i.content));
  const rows = new Map(
    items.map((i, n) => [
      hashes[n]!,
      { hash: hashes[n]!, kind: i.kind, size: Buffer.byteLength(i.content, "utf8"), content: i.content },
    ]),
  );
  if (rows.size > 0)
    await ex
      .insert(artifacts)
      .values([...rows.values()])
      .onConflictDoNothing({ target: artifacts.hash });
  return hashes;
}

export async function getArtifact(ex: Executor, hash: string): Promise<Artifact | null> {
  const [row] = await ex.select().from(artifacts).where(eq(artifacts.hash, hash));
  return row ?? null;
}

/** Several artifacts by hash; missing hashes are simply absent from the map. */
export async function getArtifacts(ex: Executor, hashes: string[]): Promise<Map<string, Artifact>> {
  if (hashes.length === 0) return new Map();
  const rows = await ex
    .select()
    .from(artifacts)
    .where(inArray(artifacts.hash, [...new Set(hashes)]));
  return new Map(rows.map((r) => [r.hash, r]));
}
