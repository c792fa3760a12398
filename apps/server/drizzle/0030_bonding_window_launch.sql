ALTER TABLE "bonding_curves" ADD COLUMN "kind" text DEFAULT 'curve' NOT NULL;--> statement-breakpoint
ALTER TABLE "bonding_curves" ADD COLUMN "virtual_tokens" numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ADD COLUMN "curve_tokens" numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ADD COLUMN "start_held" numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ADD COLUMN "total_supply" numeric;--> statement-breakpoint
ALTER TABLE "bonding_curves" ADD COLUMN "real_quote" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "bonding_curves" ADD COLUMN "graduate_after_seconds" integer;