ALTER TABLE "revenue_runs" ADD COLUMN "premium_listeners" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "premium_fee_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "premium_unallocated_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "premium_allocated_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "premium_artist_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "ad_impressions" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "ad_artist_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "tip_artist_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "revenue_runs_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "revenue_runs_month_ran_at_idx" ON "revenue_runs" USING btree ("month","ran_at" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD CONSTRAINT "revenue_runs_listeners_nonneg" CHECK ("revenue_runs"."premium_listeners" >= 0);--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD CONSTRAINT "revenue_runs_impressions_nonneg" CHECK ("revenue_runs"."ad_impressions" >= 0);--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD CONSTRAINT "revenue_runs_pool_conserved" CHECK ("revenue_runs"."total_premium_pool_cents" = "revenue_runs"."premium_fee_cents" + "revenue_runs"."premium_unallocated_cents" + "revenue_runs"."premium_allocated_cents");--> statement-breakpoint
ALTER TABLE "revenue_runs" ADD CONSTRAINT "revenue_runs_artist_within_allocated" CHECK ("revenue_runs"."premium_artist_cents" between 0 and "revenue_runs"."premium_allocated_cents");