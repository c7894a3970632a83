CREATE TABLE "mfa_challenges" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
	"user_code" text NOT NULL,
	"code_hash" text NOT NULL,
	CONSTRAINT "mfa_recovery_codes_user_code_code_hash_pk" PRIMARY KEY("user_code","code_hash")
);
--> statement-breakpoint
CREATE TABLE "oidc_logins" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"return_to" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_mfa" (
	"user_code" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "require_mfa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "session_code" text;--> statement-breakpoint
-- Sessions open at the upgrade keep going: each gets a code of the same form as new ones.
UPDATE "sessions" SET "session_code" = 'SESSION-' || upper(substr(md5("id_hash" || random()::text), 1, 16));--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "session_code" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "mfa_challenges" ADD CONSTRAINT "mfa_challenges_user_code_users_user_code_fk" FOREIGN KEY ("user_code") REFERENCES "public"."users"("user_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ADD CONSTRAINT "mfa_recovery_codes_user_code_users_user_code_fk" FOREIGN KEY ("user_code") REFERENCES "public"."users"("user_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mfa" ADD CONSTRAINT "user_mfa_user_code_users_user_code_fk" FOREIGN KEY ("user_code") REFERENCES "public"."users"("user_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_challenges_user" ON "mfa_challenges" USING btree ("user_code");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_session_code_unique" UNIQUE("session_code");;--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003).
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_mfa" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "mfa_recovery_codes" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "mfa_challenges" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "oidc_logins" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();
