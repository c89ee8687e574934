import { bigint, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { artifacts } from "./artifacts.ts";
import { revisions } from "./revisions.ts";

/** The file manifest of a revision; one row per (revisionId, path). */
export const revisionFiles = pgTable(
  "revision_files",
  {
    revisionId: integer("revision_id")
      .notNull()
      .references(() => revisions.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    oid: text("oid").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    lfsOid: text("lfs_oid"),
    artifactHash: text("artifact_hash").references(() => artifacts.hash),
  },
  (t) => [primaryKey({ name: "revision_files_pk", columns: [t.revisionId, t.path] })],
);
