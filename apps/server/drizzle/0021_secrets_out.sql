CREATE TABLE "secret_purges" (
	"name" text PRIMARY KEY NOT NULL,
	"rows" integer NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "request_key" text;--> statement-breakpoint
ALTER TABLE "reward_claims" ADD COLUMN "request_key" text;--> statement-breakpoint
ALTER TABLE "airdrop_claims" ADD COLUMN "request_key" text;--> statement-breakpoint
ALTER TABLE "faucet_grants" ADD COLUMN "request_key" text;--> statement-breakpoint
CREATE INDEX "wallets_request_idx" ON "wallets" USING btree ("user_id","request_key") WHERE "wallets"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "reward_claims_request_idx" ON "reward_claims" USING btree ("user_id","request_key") WHERE "reward_claims"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "airdrop_claims_request_idx" ON "airdrop_claims" USING btree ("user_id","request_key") WHERE "airdrop_claims"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "idempotent_requests_created_idx" ON "idempotent_requests" USING btree ("created_at");--> statement-breakpoint
-- Issue 34: POST /api/wallets with an Idempotency-Key stored its whole answer, the new wallet's
-- seed included, in idempotent_requests.response. Secret fields leave every stored answer (a replay
-- then says the seed was shown once), answers older than 24 h are deleted (they expire now), and
-- the first start afterwards rewrites what the old row versions left in the database's files
-- (lib/idempotency.ts purgeStoredSecrets; docs/key-custody.md).
INSERT INTO "secret_purges" ("name", "rows")
SELECT '0021_idempotent_answers', count(*) FILTER (
  WHERE "created_at" < now() - interval '24 hours'
     OR ("response" IS NOT NULL AND jsonb_typeof("response") = 'object'
         AND "response" ?| array['wallet_seed', 'seed', 'secret', 'mnemonic', 'privateKey', 'private_key', 'master_seed', 'master_key', 'passphrase']))
  FROM "idempotent_requests"
HAVING count(*) > 0;--> statement-breakpoint
UPDATE "idempotent_requests"
   SET "response" = ("response" - array['wallet_seed', 'seed', 'secret', 'mnemonic', 'privateKey', 'private_key', 'master_seed', 'master_key', 'passphrase'])
       || jsonb_build_object(
            'secret_shown_once', true,
            'secret_notice', 'A wallet''s seed is shown once, in the first answer to the request that created it, and never again: this is the same wallet, without its seed.')
 WHERE "response" IS NOT NULL AND jsonb_typeof("response") = 'object'
   AND "response" ?| array['wallet_seed', 'seed', 'secret', 'mnemonic', 'privateKey', 'private_key', 'master_seed', 'master_key', 'passphrase'];--> statement-breakpoint
DELETE FROM "idempotent_requests" WHERE "created_at" < now() - interval '24 hours';
