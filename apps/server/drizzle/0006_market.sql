CREATE TABLE "ledger_cursor" (
	"name" text PRIMARY KEY NOT NULL,
	"last_ledger" integer NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issuer_facts" (
	"issuer_address" text PRIMARY KEY NOT NULL,
	"master_disabled" boolean NOT NULL,
	"regular_key" text,
	"has_signer_list" boolean NOT NULL,
	"blackholed" boolean NOT NULL,
	"require_auth" boolean NOT NULL,
	"global_freeze" boolean NOT NULL,
	"no_freeze" boolean NOT NULL,
	"clawback" boolean NOT NULL,
	"transfer_rate" bigint,
	"ledger_index" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_candles" (
	"token_id" bigint NOT NULL,
	"quote" text NOT NULL,
	"resolution" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"open" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	"close" numeric NOT NULL,
	"volume" numeric NOT NULL,
	"trades" integer NOT NULL,
	CONSTRAINT "market_candles_token_id_quote_resolution_bucket_pk" PRIMARY KEY("token_id","quote","resolution","bucket")
);
--> statement-breakpoint
CREATE TABLE "market_holders" (
	"token_id" bigint NOT NULL,
	"account" text NOT NULL,
	"balance" numeric NOT NULL,
	CONSTRAINT "market_holders_token_id_account_pk" PRIMARY KEY("token_id","account")
);
--> statement-breakpoint
CREATE TABLE "market_pools" (
	"token_id" bigint NOT NULL,
	"quote" text NOT NULL,
	"amm_account" text NOT NULL,
	"token_amount" numeric NOT NULL,
	"quote_amount" numeric NOT NULL,
	"lp_supply" numeric NOT NULL,
	"lp_currency" text NOT NULL,
	"trading_fee" integer NOT NULL,
	"ledger_index" integer NOT NULL,
	CONSTRAINT "market_pools_token_id_quote_pk" PRIMARY KEY("token_id","quote")
);
--> statement-breakpoint
CREATE TABLE "market_synced" (
	"token_id" bigint PRIMARY KEY NOT NULL,
	"ledger_index" integer NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_trades" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" bigint NOT NULL,
	"quote" text NOT NULL,
	"ledger_index" integer NOT NULL,
	"tx_index" integer NOT NULL,
	"hash" text NOT NULL,
	"account" text NOT NULL,
	"side" text NOT NULL,
	"price" numeric NOT NULL,
	"token_amount" numeric NOT NULL,
	"quote_amount" numeric NOT NULL,
	"time" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "market_holders_positive_idx" ON "market_holders" USING btree ("token_id") WHERE "market_holders"."balance" > 0;--> statement-breakpoint
CREATE INDEX "market_pools_account_idx" ON "market_pools" USING btree ("amm_account");--> statement-breakpoint
CREATE UNIQUE INDEX "market_trades_hash_token_uq" ON "market_trades" USING btree ("hash","token_id","quote");--> statement-breakpoint
CREATE INDEX "market_trades_token_time_idx" ON "market_trades" USING btree ("token_id","time");