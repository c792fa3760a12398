CREATE TABLE "tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"ticker" text NOT NULL,
	"currency" text NOT NULL,
	"issuer_address" text NOT NULL,
	"supply" text NOT NULL,
	"dev_allocation" text DEFAULT '0' NOT NULL,
	"liquidity_amount" text DEFAULT '0' NOT NULL,
	"amm_fee" text DEFAULT '0' NOT NULL,
	"liquidity_pair" text DEFAULT 'XRP' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"logo_url" text,
	"telegram_file_id" text,
	"twitter_link" text,
	"telegram_link" text,
	"website_link" text,
	"is_blackholed" boolean DEFAULT false NOT NULL,
	"require_auth" boolean DEFAULT false NOT NULL,
	"is_new" boolean DEFAULT true NOT NULL,
	"is_market_listed" boolean DEFAULT true NOT NULL,
	"is_market_ready" boolean DEFAULT true NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"source" text NOT NULL,
	"deployer_user_id" integer,
	"listed_by_user_id" integer,
	"issuer_wallet_id" bigint,
	"hot_wallet_id" bigint,
	"deploy_job_id" uuid,
	"total_reward" text DEFAULT '0' NOT NULL,
	"reward_currency" text DEFAULT 'XRP' NOT NULL,
	"total_claimed" text DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"listed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "job_id" uuid;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_deployer_user_id_users_id_fk" FOREIGN KEY ("deployer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_listed_by_user_id_users_id_fk" FOREIGN KEY ("listed_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_issuer_currency_uq" ON "tokens" USING btree ("issuer_address","currency");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_deploy_job_uq" ON "tokens" USING btree ("deploy_job_id") WHERE "tokens"."deploy_job_id" is not null;--> statement-breakpoint
CREATE INDEX "tokens_deployer_idx" ON "tokens" USING btree ("deployer_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_job_role_uq" ON "wallets" USING btree ("job_id","role") WHERE "wallets"."job_id" is not null;