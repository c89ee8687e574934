import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { repos } from "./repos.ts";
import { revisions } from "./revisions.ts";

/**
 * A PEFT adapter repo's base model, as its newest processed adapter_config.json names it
 * (`base_model_name_or_path`): one row per adapter repo. The base is a name, not a foreign key, so a base
 * watched later is linked at once; `revisionId` is the adapter revision that named it (a rerun of an older
 * revision does not move the link back).
 */
export const adapterBases = pgTable(
  "adapter_bases",
  {
    adapterRepoId: integer("adapter_repo_id")
      .primaryKey()
      .references(() => repos.id, { onDelete: "cascade" }),
    baseName: text("base_name").notNull(),
    revisionId: integer("revision_id")
      .notNull()
      .references(() => revisions.id, { onDelete: "cascade" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Hub repo names compare case-insensitively.
  (t) => [index("adapter_bases_base_name_idx").on(sql`lower(${t.baseName})`)],
);
