ALTER TABLE "ledger_submissions" ADD COLUMN "parent_hash" text;--> statement-breakpoint
CREATE INDEX "ledger_submissions_parent_idx" ON "ledger_submissions" USING btree ("parent_hash");