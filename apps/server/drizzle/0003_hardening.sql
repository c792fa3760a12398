CREATE TABLE "sign_in_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sign_in_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sign_in_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "faucet_grants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"wallet_id" bigint NOT NULL,
	"asset" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "demo_device_hash" text;--> statement-breakpoint
ALTER TABLE "sign_in_links" ADD CONSTRAINT "sign_in_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faucet_grants" ADD CONSTRAINT "faucet_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "faucet_grants_user_idx" ON "faucet_grants" USING btree ("user_id","asset","created_at");--> statement-breakpoint
-- Hand-written: the owner (user id 1, an admin) exists from the first start, so no sign-in can
-- claim it. It signs in with a one-time link printed to the console. Databases that already have
-- users keep their owner.
INSERT INTO "users" ("id", "username", "first_name") SELECT 1, 'owner', 'Owner' WHERE NOT EXISTS (SELECT 1 FROM "users");--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('users', 'id'), GREATEST((SELECT max("id") FROM "users"), 1));--> statement-breakpoint
INSERT INTO "admins" ("user_id") SELECT 1 WHERE EXISTS (SELECT 1 FROM "users" WHERE "id" = 1) ON CONFLICT DO NOTHING;
