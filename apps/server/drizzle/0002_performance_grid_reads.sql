CREATE INDEX "performance_months_month" ON "performance_months" USING btree ("month");--> statement-breakpoint
ALTER TABLE "performances" SET (fillfactor = 80);