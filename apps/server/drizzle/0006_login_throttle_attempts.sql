-- Counts kept the old way (failures in a fixed window) mean nothing to the new rules, and the new
-- limit column has no default: forgetting them only lifts the blocks in force at the upgrade.
DELETE FROM "login_throttle";--> statement-breakpoint
ALTER TABLE "login_throttle" ADD COLUMN "max_attempts" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "login_throttle" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "login_throttle" ADD COLUMN "refused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "login_throttle" ADD COLUMN "last_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "login_throttle" ADD COLUMN "signed_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "login_throttle" DROP COLUMN "failures";--> statement-breakpoint
ALTER TABLE "login_throttle" DROP COLUMN "window_start";