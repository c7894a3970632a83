CREATE TABLE "sso_identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_code" text NOT NULL,
	"provider_username" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "sso_identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_linking" text DEFAULT 'role' NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_code_users_user_code_fk" FOREIGN KEY ("user_code") REFERENCES "public"."users"("user_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_identities_user_issuer" ON "sso_identities" USING btree ("user_code","issuer");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sso_linking_check" CHECK ("sso_linking" IN ('role', 'allowed', 'refused'));--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003).
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sso_identities" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();
