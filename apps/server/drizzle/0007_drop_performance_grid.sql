DROP TABLE "performance_grid" CASCADE;--> statement-breakpoint
DROP TABLE "performance_grid_dates" CASCADE;