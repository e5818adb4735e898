CREATE TABLE "artist_accounts" (
	"artist_id" uuid PRIMARY KEY NOT NULL,
	"payment_method" "payment_method",
	"payment_details_encrypted" text,
	"payment_details_masked" text,
	"payout_account_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artist_accounts_payout_account_len" CHECK (char_length("artist_accounts"."payout_account_id") between 1 and 255)
);
--> statement-breakpoint
CREATE TABLE "withdrawal_idempotency_keys" (
	"artist_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"withdrawal_id" uuid NOT NULL,
	"status_code" integer NOT NULL,
	"response" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawal_idempotency_keys_artist_id_key_pk" PRIMARY KEY("artist_id","key"),
	CONSTRAINT "withdrawal_idempotency_keys_key_len" CHECK (char_length("withdrawal_idempotency_keys"."key") between 1 and 255),
	CONSTRAINT "withdrawal_idempotency_keys_status" CHECK ("withdrawal_idempotency_keys"."status_code" between 200 and 299)
);
--> statement-breakpoint
ALTER TABLE "artist_accounts" ADD CONSTRAINT "artist_accounts_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_idempotency_keys" ADD CONSTRAINT "withdrawal_idempotency_keys_artist_id_users_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_idempotency_keys" ADD CONSTRAINT "withdrawal_idempotency_keys_withdrawal_id_artist_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."artist_withdrawals"("id") ON DELETE cascade ON UPDATE no action;