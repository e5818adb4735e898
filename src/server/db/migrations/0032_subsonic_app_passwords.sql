CREATE TABLE "subsonic_app_passwords" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sealed_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subsonic_app_passwords_name_len" CHECK (char_length("subsonic_app_passwords"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "subsonic_app_passwords" ADD CONSTRAINT "subsonic_app_passwords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subsonic_app_passwords_user_idx" ON "subsonic_app_passwords" USING btree ("user_id","created_at");