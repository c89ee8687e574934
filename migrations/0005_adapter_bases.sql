CREATE TABLE "adapter_bases" (
	"adapter_repo_id" integer PRIMARY KEY NOT NULL,
	"base_name" text NOT NULL,
	"revision_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "adapter_bases" ADD CONSTRAINT "adapter_bases_adapter_repo_id_repos_id_fk" FOREIGN KEY ("adapter_repo_id") REFERENCES "public"."repos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adapter_bases" ADD CONSTRAINT "adapter_bases_revision_id_revisions_id_fk" FOREIGN KEY ("revision_id") REFERENCES "public"."revisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "adapter_bases_base_name_idx" ON "adapter_bases" USING btree (lower("base_name"));