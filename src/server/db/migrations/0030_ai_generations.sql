CREATE TABLE "ai_generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"prompt" text NOT NULL,
	"seed" integer NOT NULL,
	"provider" text NOT NULL,
	"text" text,
	"image_url" text,
	"image_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_generations_prompt_len" CHECK (char_length("ai_generations"."prompt") between 1 and 1000),
	CONSTRAINT "ai_generations_seed_range" CHECK ("ai_generations"."seed" >= 0),
	CONSTRAINT "ai_generations_result" CHECK (("ai_generations"."kind" = 'lyrics' and "ai_generations"."text" is not null and "ai_generations"."image_url" is null) or ("ai_generations"."kind" = 'cover-art' and "ai_generations"."image_url" is not null and "ai_generations"."text" is null))
);
--> statement-breakpoint
ALTER TABLE "ai_generations" ADD CONSTRAINT "ai_generations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_generations_user_created_idx" ON "ai_generations" USING btree ("user_id","created_at" DESC NULLS FIRST);