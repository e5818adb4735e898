CREATE TYPE "public"."tip_status" AS ENUM('pending', 'paid', 'failed');--> statement-breakpoint
CREATE TABLE "tips" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listener_id" uuid,
	"artist_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_ref" text,
	"status" "tip_status" DEFAULT 'pending' NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "tips_amount_range" CHECK ("tips"."amount_cents" between 100 and 10000),
	CONSTRAINT "tips_fee_range" CHECK ("tips"."fee_cents" >= 0 and "tips"."fee_cents" <= "tips"."amount_cents"),
	CONSTRAINT "tips_paid_at" CHECK ("tips"."status" <> 'paid' or "tips"."paid_at" is not null),
	CONSTRAINT "tips_message_len" CHECK (char_length("tips"."message") between 0 and 280)
);
--> statement-breakpoint
ALTER TABLE "tips" ADD CONSTRAINT "tips_listener_id_users_id_fk" FOREIGN KEY ("listener_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips" ADD CONSTRAINT "tips_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tips_provider_ref_key" ON "tips" USING btree ("provider","provider_ref");--> statement-breakpoint
CREATE INDEX "tips_artist_paid_idx" ON "tips" USING btree ("artist_id","paid_at") WHERE "tips"."status" = 'paid';