ALTER TABLE "webhook_subscriptions" ADD COLUMN "kinds" text[];--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_lane_idx" ON "webhook_deliveries" USING btree ("subscription_id","next_attempt_at") WHERE "webhook_deliveries"."status" in ('pending', 'failed');