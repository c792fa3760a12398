CREATE TABLE "funds_locks" (
	"account" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotent_requests" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"body_hash" text NOT NULL,
	"state" text NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotent_requests_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "deploy_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"locked_until" timestamp with time zone,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "position_fills" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"issuer" text NOT NULL,
	"quote" text NOT NULL,
	"side" text NOT NULL,
	"token_amount" numeric NOT NULL,
	"quote_amount" numeric NOT NULL,
	"ledger_index" integer NOT NULL,
	"tx_index" integer NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "deploy_attempts_user_idx" ON "deploy_attempts" USING btree ("user_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "position_fills_uq" ON "position_fills" USING btree ("hash","account","currency","issuer");--> statement-breakpoint
CREATE INDEX "position_fills_account_idx" ON "position_fills" USING btree ("account","ledger_index","tx_index");