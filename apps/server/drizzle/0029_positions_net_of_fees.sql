-- Issue 39: realized and unrealized PnL are net of the platform fee and network fees. The cost
-- bases stored so far were summed without them; dropping them makes the next positions read
-- recompute every wallet's basis from its trades (modules/positions/fills.ts), fees included.
DELETE FROM "position_checkpoints";--> statement-breakpoint
DELETE FROM "position_bases";
