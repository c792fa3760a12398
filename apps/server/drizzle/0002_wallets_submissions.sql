CREATE TABLE "wallets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"role" text DEFAULT 'user' NOT NULL,
	"address" text NOT NULL,
	"name" text,
	"secret_kind" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"secret_nonce" text NOT NULL,
	"data_key_wrapped" text NOT NULL,
	"data_key_nonce" text NOT NULL,
	"key_id" text NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"account" text PRIMARY KEY NOT NULL,
	"next_sequence" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_submissions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"intent_key" text NOT NULL,
	"account" text NOT NULL,
	"sequence" bigint NOT NULL,
	"last_ledger_sequence" bigint NOT NULL,
	"tx_type" text NOT NULL,
	"purpose" text NOT NULL,
	"user_id" integer,
	"wallet_id" bigint,
	"hash" text NOT NULL,
	"tx_blob" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"engine_result" text,
	"result" text,
	"ledger_index" bigint,
	"meta" jsonb,
	"submit_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finalized_at" timestamp with time zone,
	CONSTRAINT "ledger_submissions_intent_key_unique" UNIQUE("intent_key"),
	CONSTRAINT "ledger_submissions_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_user_address_uq" ON "wallets" USING btree ("user_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_platform_role_uq" ON "wallets" USING btree ("role") WHERE "wallets"."user_id" is null and "wallets"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "wallets_address_idx" ON "wallets" USING btree ("address");--> statement-breakpoint
CREATE INDEX "ledger_submissions_open_idx" ON "ledger_submissions" USING btree ("status","account","sequence");