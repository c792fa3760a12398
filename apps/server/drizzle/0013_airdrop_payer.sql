ALTER TABLE "airdrop_claims" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "airdrop_claims" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "airdrop_claims" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "airdrop_claims_pending_idx" ON "airdrop_claims" USING btree ("id") WHERE "airdrop_claims"."status" = 'pending';