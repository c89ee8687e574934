import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const artifactKinds = ["json", "text", "weights_header", "tokenizer_summary"] as const;
export type ArtifactKind = (typeof artifactKinds)[number];

/**
 * Content-addressed blobs, stored once by sha256 of `content` and shared across revisions and repos.
 * JSON is kept as text so the stored bytes are exactly the hashed bytes.
 */
export const artifacts = pgTable(
  "artifacts",
  {
    hash: text("hash").primaryKey(),
    kind: text("kind", { enum: artifactKinds }).notNull(),
    size: integer("size").notNull(),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("artifacts_hash_check", sql`${t.hash} ~ '^[0-9a-f]{64}$'`),
    check("artifacts_kind_check", sql`${t.kind} in ('json', 'text', 'weights_header', 'tokenizer_summary')`),
  ],
);
