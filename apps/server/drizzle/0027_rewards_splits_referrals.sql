CREATE TABLE "reward_payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"claim_id" bigint NOT NULL,
	"token_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position" integer NOT NULL,
	"address" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reward_split_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reward_splits" (
	"token_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"address" text NOT NULL,
	"bps" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_splits_token_id_position_pk" PRIMARY KEY("token_id","position"),
	CONSTRAINT "reward_splits_position" CHECK ("reward_splits"."position" between 0 and 4),
	CONSTRAINT "reward_splits_bps" CHECK ("reward_splits"."bps" between 1 and 10000)
);
--> statement-breakpoint
CREATE TABLE "referral_accruals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_id" bigint NOT NULL,
	"referrer_user_id" integer NOT NULL,
	"referred_user_id" integer NOT NULL,
	"currency" text NOT NULL,
	"fee" numeric NOT NULL,
	"share_bps" integer NOT NULL,
	"amount" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_accruals_trade_id_unique" UNIQUE("trade_id")
);
--> statement-breakpoint
CREATE TABLE "referral_balances" (
	"user_id" integer NOT NULL,
	"currency" text NOT NULL,
	"earned" numeric DEFAULT '0' NOT NULL,
	"claimed" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "referral_balances_user_id_currency_pk" PRIMARY KEY("user_id","currency"),
	CONSTRAINT "referral_balances_claimed" CHECK ("referral_balances"."claimed" >= 0 and "referral_balances"."claimed" <= "referral_balances"."earned")
);
--> statement-breakpoint
CREATE TABLE "referral_claims" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"hash" text,
	"request_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_codes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"referred_user_id" integer PRIMARY KEY NOT NULL,
	"referrer_user_id" integer NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "referrals_not_self" CHECK ("referrals"."referred_user_id" <> "referrals"."referrer_user_id")
);
--> statement-breakpoint
ALTER TABLE "referral_codes" ADD CONSTRAINT "referral_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referred_user_id_users_id_fk" FOREIGN KEY ("referred_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referrer_user_id_users_id_fk" FOREIGN KEY ("referrer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reward_payouts_claim_position_uq" ON "reward_payouts" USING btree ("claim_id","position");--> statement-breakpoint
CREATE INDEX "reward_payouts_token_idx" ON "reward_payouts" USING btree ("token_id","id");--> statement-breakpoint
CREATE INDEX "reward_split_events_token_idx" ON "reward_split_events" USING btree ("token_id","id");--> statement-breakpoint
CREATE INDEX "referral_accruals_referrer_idx" ON "referral_accruals" USING btree ("referrer_user_id","id");--> statement-breakpoint
CREATE INDEX "referral_claims_user_idx" ON "referral_claims" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "referral_claims_request_idx" ON "referral_claims" USING btree ("user_id","request_key") WHERE "referral_claims"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "referrals_referrer_idx" ON "referrals" USING btree ("referrer_user_id");--> statement-breakpoint
-- A token's split history is public and append-only, like the identity history.
CREATE FUNCTION reward_split_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'reward_split_events is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER reward_split_events_no_change BEFORE UPDATE OR DELETE ON reward_split_events FOR EACH ROW EXECUTE FUNCTION reward_split_events_append_only();--> statement-breakpoint
-- A referral binds once, at the referred user's first sign-in, and is never changed afterwards.
CREATE FUNCTION referrals_never_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'referrals never change once bound';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER referrals_no_change BEFORE UPDATE OR DELETE ON referrals FOR EACH ROW EXECUTE FUNCTION referrals_never_change();--> statement-breakpoint
-- Every claim made before splits existed paid one wallet: its one payout, as the history shows it.
INSERT INTO "reward_payouts" ("claim_id", "token_id", "user_id", "position", "address", "amount", "currency", "status", "hash", "created_at", "updated_at")
SELECT "id", "token_id", "user_id", 0, "wallet_address", "amount", "currency", "status", "hash", "created_at", "updated_at" FROM "reward_claims";
