CREATE TABLE "position_bases" (
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"issuer" text NOT NULL,
	"quantity" numeric NOT NULL,
	"cost" numeric NOT NULL,
	"realized" numeric NOT NULL,
	CONSTRAINT "position_bases_account_currency_issuer_pk" PRIMARY KEY("account","currency","issuer")
);
--> statement-breakpoint
CREATE TABLE "position_checkpoints" (
	"account" text PRIMARY KEY NOT NULL,
	"through_ledger" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "market_trades_account_ledger_idx" ON "market_trades" USING btree ("account","ledger_index");