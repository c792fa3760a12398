CREATE TABLE "bonding_curves" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" bigint NOT NULL,
	"issuer_address" text NOT NULL,
	"currency" text NOT NULL,
	"quote" text NOT NULL,
	"quote_issuer" text,
	"curve_wallet_id" bigint NOT NULL,
	"curve_address" text NOT NULL,
	"creator_user_id" integer NOT NULL,
	"creator_address" text NOT NULL,
	"deposit_drops" text NOT NULL,
	"virtual_quote" text NOT NULL,
	"steps" integer NOT NULL,
	"fine_steps" integer NOT NULL,
	"snipe_ledgers" integer NOT NULL,
	"snipe_tokens" text NOT NULL,
	"amm_trading_fee" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"held" text NOT NULL,
	"state_ledger" integer DEFAULT 0 NOT NULL,
	"launch_ledger" integer,
	"fee_ppm" integer NOT NULL,
	"quote_in" text DEFAULT '0' NOT NULL,
	"quote_out" text DEFAULT '0' NOT NULL,
	"fees_accrued" text DEFAULT '0' NOT NULL,
	"fees_swept" text DEFAULT '0' NOT NULL,
	"sweeps" integer DEFAULT 0 NOT NULL,
	"keeper_owner" text,
	"keeper_until" timestamp with time zone,
	"graduation_job_id" uuid,
	"amm_account" text,
	"pool_quote" text,
	"pool_tokens" text,
	"graduated_ledger" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bonding_trades" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"curve_id" bigint NOT NULL,
	"hash" text NOT NULL,
	"ledger_index" integer NOT NULL,
	"account" text NOT NULL,
	"side" text NOT NULL,
	"tokens" text NOT NULL,
	"quote" text NOT NULL,
	"fee" text NOT NULL,
	"sold_after" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "launch_type" text;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "bonding_active" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "graduated_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "bonding_curves_token_uq" ON "bonding_curves" USING btree ("token_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bonding_curves_account_uq" ON "bonding_curves" USING btree ("curve_address");--> statement-breakpoint
CREATE INDEX "bonding_curves_status_idx" ON "bonding_curves" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "bonding_trades_hash_uq" ON "bonding_trades" USING btree ("curve_id","hash");--> statement-breakpoint
CREATE INDEX "bonding_trades_ledger_idx" ON "bonding_trades" USING btree ("curve_id","ledger_index");