-- Money columns become numeric (issue 23): existing text values are converted in place (USING),
-- empty texts of nullable columns become NULL; a text default is dropped before the type changes
-- and set again after (PostgreSQL cannot cast a text default).
CREATE TABLE "funds_locks" (
	"account" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotent_requests" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"body_hash" text NOT NULL,
	"state" text NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotent_requests_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "deploy_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"locked_until" timestamp with time zone,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "position_fills" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"issuer" text NOT NULL,
	"quote" text NOT NULL,
	"side" text NOT NULL,
	"token_amount" numeric NOT NULL,
	"quote_amount" numeric NOT NULL,
	"ledger_index" integer NOT NULL,
	"tx_index" integer NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "slippage" SET DATA TYPE numeric USING nullif(trim("slippage"), '')::numeric;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "custom_fee_percentage" SET DATA TYPE numeric USING nullif(trim("custom_fee_percentage"), '')::numeric;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "supply" SET DATA TYPE numeric USING "supply"::numeric;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "dev_allocation" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "dev_allocation" SET DATA TYPE numeric USING "dev_allocation"::numeric;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "dev_allocation" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "liquidity_amount" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "liquidity_amount" SET DATA TYPE numeric USING "liquidity_amount"::numeric;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "liquidity_amount" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "amm_fee" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "amm_fee" SET DATA TYPE numeric USING "amm_fee"::numeric;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "amm_fee" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "total_reward" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "total_reward" SET DATA TYPE numeric USING "total_reward"::numeric;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "total_reward" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "total_claimed" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "total_claimed" SET DATA TYPE numeric USING "total_claimed"::numeric;--> statement-breakpoint
ALTER TABLE "tokens" ALTER COLUMN "total_claimed" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "trading_orders" ALTER COLUMN "amount" SET DATA TYPE numeric USING "amount"::numeric;--> statement-breakpoint
ALTER TABLE "trading_orders" ALTER COLUMN "expected_tokens" SET DATA TYPE numeric USING "expected_tokens"::numeric;--> statement-breakpoint
ALTER TABLE "trading_orders" ALTER COLUMN "price" SET DATA TYPE numeric USING "price"::numeric;--> statement-breakpoint
ALTER TABLE "trading_orders" ALTER COLUMN "remaining_tokens" SET DATA TYPE numeric USING "remaining_tokens"::numeric;--> statement-breakpoint
ALTER TABLE "trading_trades" ALTER COLUMN "spent" SET DATA TYPE numeric USING "spent"::numeric;--> statement-breakpoint
ALTER TABLE "trading_trades" ALTER COLUMN "received" SET DATA TYPE numeric USING "received"::numeric;--> statement-breakpoint
ALTER TABLE "trading_trades" ALTER COLUMN "fee" SET DATA TYPE numeric USING "fee"::numeric;--> statement-breakpoint
ALTER TABLE "reward_claims" ALTER COLUMN "amount" SET DATA TYPE numeric USING "amount"::numeric;--> statement-breakpoint
ALTER TABLE "airdrop_claims" ALTER COLUMN "amount" SET DATA TYPE numeric USING "amount"::numeric;--> statement-breakpoint
ALTER TABLE "airdrops" ALTER COLUMN "fixed_amount" SET DATA TYPE numeric USING nullif(trim("fixed_amount"), '')::numeric;--> statement-breakpoint
ALTER TABLE "airdrops" ALTER COLUMN "min_amount" SET DATA TYPE numeric USING nullif(trim("min_amount"), '')::numeric;--> statement-breakpoint
ALTER TABLE "airdrops" ALTER COLUMN "max_amount" SET DATA TYPE numeric USING nullif(trim("max_amount"), '')::numeric;--> statement-breakpoint
ALTER TABLE "airdrops" ALTER COLUMN "total_amount" SET DATA TYPE numeric USING "total_amount"::numeric;--> statement-breakpoint
ALTER TABLE "airdrops" ALTER COLUMN "remaining" SET DATA TYPE numeric USING "remaining"::numeric;--> statement-breakpoint
ALTER TABLE "airdrops" ALTER COLUMN "returned_amount" SET DATA TYPE numeric USING nullif(trim("returned_amount"), '')::numeric;--> statement-breakpoint
CREATE INDEX "deploy_attempts_user_idx" ON "deploy_attempts" USING btree ("user_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "position_fills_uq" ON "position_fills" USING btree ("hash","account","currency","issuer");--> statement-breakpoint
CREATE INDEX "position_fills_account_idx" ON "position_fills" USING btree ("account","ledger_index","tx_index");