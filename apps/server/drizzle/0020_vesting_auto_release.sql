CREATE TABLE "vesting_auto_release" (
	"token_id" bigint PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"enabled" boolean NOT NULL,
	"next_due_at" integer,
	"keeper_owner" text,
	"keeper_until" timestamp with time zone,
	"retry_after" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vesting_auto_release" ADD CONSTRAINT "vesting_auto_release_token_id_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vesting_auto_release" ADD CONSTRAINT "vesting_auto_release_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vesting_auto_release_due_idx" ON "vesting_auto_release" USING btree ("next_due_at") WHERE "vesting_auto_release"."enabled";