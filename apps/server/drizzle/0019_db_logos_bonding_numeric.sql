-- Issue 26: uploaded logos live in the database (every instance serves every logo, no shared
-- volume); files an earlier version stored in DATA_DIR/uploads are imported at start (uploads/store.ts).
-- Issue 23: the bonding-curve money columns become numeric; existing text values are converted in
-- place (USING), empty texts of nullable columns become NULL; a text default is dropped before the
-- type changes and set again after (PostgreSQL cannot cast a text default).
CREATE TABLE "uploaded_logos" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "uploaded_logos_last_used_idx" ON "uploaded_logos" USING btree ("last_used_at");--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "deposit_drops" SET DATA TYPE numeric USING trim("deposit_drops")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "virtual_quote" SET DATA TYPE numeric USING trim("virtual_quote")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "snipe_tokens" SET DATA TYPE numeric USING trim("snipe_tokens")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "held" SET DATA TYPE numeric USING trim("held")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "quote_in" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "quote_in" SET DATA TYPE numeric USING trim("quote_in")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "quote_in" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "quote_out" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "quote_out" SET DATA TYPE numeric USING trim("quote_out")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "quote_out" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "fees_accrued" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "fees_accrued" SET DATA TYPE numeric USING trim("fees_accrued")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "fees_accrued" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "fees_swept" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "fees_swept" SET DATA TYPE numeric USING trim("fees_swept")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "fees_swept" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "bonding_trades" ALTER COLUMN "tokens" SET DATA TYPE numeric USING trim("tokens")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_trades" ALTER COLUMN "quote" SET DATA TYPE numeric USING trim("quote")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_trades" ALTER COLUMN "fee" SET DATA TYPE numeric USING trim("fee")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_trades" ALTER COLUMN "sold_after" SET DATA TYPE numeric USING trim("sold_after")::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "pool_quote" SET DATA TYPE numeric USING nullif(trim("pool_quote"), '')::numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ALTER COLUMN "pool_tokens" SET DATA TYPE numeric USING nullif(trim("pool_tokens"), '')::numeric;
