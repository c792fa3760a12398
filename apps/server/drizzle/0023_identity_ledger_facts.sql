ALTER TABLE "tokens" ADD COLUMN "same_as" jsonb;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "verified_domain" text;--> statement-breakpoint
ALTER TABLE "listing_challenges" ADD COLUMN "claim_text" text;