-- One request budget across instances (issue 34): per-minute counters every instance upserts.
-- UNLOGGED: a counter lost in a crash costs a caller at most one window's count, and skipping the
-- WAL keeps the upsert on every request cheap.
CREATE UNLOGGED TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"window_ms" integer NOT NULL,
	"hits" integer NOT NULL
);
