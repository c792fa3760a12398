-- Issue 40: a transaction's metadata is stored as json (verbatim, only checked) instead of jsonb
-- (parsed into its binary form on every write, printed again on every read). Nothing queries inside
-- it in SQL. Existing rows keep their documents (jsonb's text form, which is valid json).
ALTER TABLE "ledger_submissions" ALTER COLUMN "meta" SET DATA TYPE json USING "meta"::json;
