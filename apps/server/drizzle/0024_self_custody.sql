CREATE TABLE "wallet_challenges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"address" text NOT NULL,
	"kind" text NOT NULL,
	"wallet_app" text,
	"nonce" text NOT NULL,
	"tx_json" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_intents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"intent_key" text NOT NULL,
	"user_id" integer NOT NULL,
	"wallet_id" bigint NOT NULL,
	"account" text NOT NULL,
	"purpose" text NOT NULL,
	"mode" text NOT NULL,
	"txs" jsonb NOT NULL,
	"context" jsonb NOT NULL,
	"status" text DEFAULT 'prepared' NOT NULL,
	"last_ledger_sequence" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"signed" jsonb,
	"result" jsonb,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signing_intents_intent_key_unique" UNIQUE("intent_key")
);
--> statement-breakpoint
ALTER TABLE "wallets" ALTER COLUMN "secret_kind" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ALTER COLUMN "secret_ciphertext" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ALTER COLUMN "secret_nonce" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ALTER COLUMN "data_key_wrapped" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ALTER COLUMN "data_key_nonce" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ALTER COLUMN "key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "kind" text DEFAULT 'custodial' NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "wallet_app" text;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "public_key" text;--> statement-breakpoint
ALTER TABLE "ledger_submissions" ADD COLUMN "signer" text DEFAULT 'platform' NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_challenges" ADD CONSTRAINT "wallet_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_intents" ADD CONSTRAINT "signing_intents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_challenges_user_idx" ON "wallet_challenges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "signing_intents_open_idx" ON "signing_intents" USING btree ("status","created_at") WHERE "signing_intents"."status" in ('prepared', 'submitted');--> statement-breakpoint
CREATE INDEX "signing_intents_user_idx" ON "signing_intents" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_kind_secret_ck" CHECK (("wallets"."kind" = 'custodial') = ("wallets"."secret_ciphertext" is not null and "wallets"."key_id" is not null));--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_kind_ck" CHECK ("wallets"."kind" in ('custodial', 'browser', 'external'));