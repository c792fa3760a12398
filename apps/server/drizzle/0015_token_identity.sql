CREATE TABLE "listing_challenges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"issuer_address" text NOT NULL,
	"code" text NOT NULL,
	"ledger_index" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"tx_hash" text
);
--> statement-breakpoint
CREATE TABLE "token_identity_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" bigint NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"method" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "verified_by" text;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "controller_user_id" integer;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "lookalike_of" text;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "metadata_by" text DEFAULT 'lister' NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_challenges" ADD CONSTRAINT "listing_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listing_challenges_code_uq" ON "listing_challenges" USING btree ("code");--> statement-breakpoint
CREATE INDEX "listing_challenges_token_user_idx" ON "listing_challenges" USING btree ("token_id","user_id");--> statement-breakpoint
CREATE INDEX "token_identity_events_token_idx" ON "token_identity_events" USING btree ("token_id");--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_controller_user_id_users_id_fk" FOREIGN KEY ("controller_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The identity history is append-only, like admin_audit.
CREATE FUNCTION token_identity_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'token_identity_events is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER token_identity_events_no_change BEFORE UPDATE OR DELETE ON token_identity_events FOR EACH ROW EXECUTE FUNCTION token_identity_events_append_only();--> statement-breakpoint
-- Tokens deployed through Ledgerpad are verified by construction: the deployer made the issuer, and
-- the name, description, logo and links are theirs.
UPDATE "tokens" SET "verified" = true, "verified_by" = 'deploy', "verified_at" = "listed_at", "controller_user_id" = "deployer_user_id", "metadata_by" = 'issuer' WHERE "source" = 'deploy';--> statement-breakpoint
-- A listing whose issuer is one of the lister's own custodial wallets was made by its controller.
UPDATE "tokens" SET "verified" = true, "verified_by" = 'wallet', "verified_at" = "listed_at", "controller_user_id" = "listed_by_user_id", "metadata_by" = 'issuer' WHERE "source" = 'listing' AND "listed_by_user_id" IS NOT NULL AND EXISTS (SELECT 1 FROM "wallets" w WHERE w."user_id" = "tokens"."listed_by_user_id" AND w."address" = "tokens"."issuer_address" AND w."archived_at" IS NULL);
