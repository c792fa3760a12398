CREATE TABLE "trading_trades" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"wallet_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"issuer" text NOT NULL,
	"currency" text NOT NULL,
	"quote" text NOT NULL,
	"side" text NOT NULL,
	"spent" text NOT NULL,
	"received" text NOT NULL,
	"hash" text NOT NULL,
	"ledger_index" integer,
	"fee" text NOT NULL,
	"fee_status" text NOT NULL,
	"fee_hash" text,
	"token_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "trading_trades_hash_uq" ON "trading_trades" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "trading_trades_user_idx" ON "trading_trades" USING btree ("user_id","created_at");