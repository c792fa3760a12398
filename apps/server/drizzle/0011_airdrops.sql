CREATE TABLE "airdrop_claims" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"airdrop_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"wallet_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"amount" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "airdrops" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"creator_user_id" integer NOT NULL,
	"source_wallet_id" integer NOT NULL,
	"source_address" text NOT NULL,
	"airdrop_wallet_id" integer,
	"airdrop_address" text,
	"job_id" uuid,
	"project_name" text NOT NULL,
	"tagline" text DEFAULT '' NOT NULL,
	"logo_url" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"issuer_address" text NOT NULL,
	"currency" text NOT NULL,
	"per_user_type" text NOT NULL,
	"fixed_amount" text,
	"min_amount" text,
	"max_amount" text,
	"max_claims" integer NOT NULL,
	"claimed_count" integer DEFAULT 0 NOT NULL,
	"total_amount" text NOT NULL,
	"remaining" text NOT NULL,
	"returned_amount" text,
	"expiry" timestamp with time zone NOT NULL,
	"website_url" text,
	"twitter_url" text,
	"trustline_mode" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "airdrop_claims_user_uq" ON "airdrop_claims" USING btree ("airdrop_id","user_id") WHERE "airdrop_claims"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "airdrops_status_idx" ON "airdrops" USING btree ("status","expiry");--> statement-breakpoint
CREATE INDEX "airdrops_source_idx" ON "airdrops" USING btree ("source_wallet_id","currency","issuer_address");