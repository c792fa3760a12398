CREATE TABLE "trading_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"offer_sequence" integer NOT NULL,
	"status" text NOT NULL,
	"order_type" text NOT NULL,
	"token_currency" text NOT NULL,
	"token_issuer" text NOT NULL,
	"quote" text NOT NULL,
	"amount" text NOT NULL,
	"expected_tokens" text NOT NULL,
	"price" text NOT NULL,
	"remaining_tokens" text NOT NULL,
	"hash" text NOT NULL,
	"ledger_index" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reward_claims" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "slippage" text;--> statement-breakpoint
CREATE UNIQUE INDEX "trading_orders_offer_uq" ON "trading_orders" USING btree ("wallet_address","offer_sequence");--> statement-breakpoint
CREATE INDEX "trading_orders_user_idx" ON "trading_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "reward_claims_token_idx" ON "reward_claims" USING btree ("token_id","created_at");