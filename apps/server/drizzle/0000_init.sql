CREATE TABLE "audits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"audit_code" text NOT NULL,
	"action" text NOT NULL,
	"collection" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"changes" jsonb,
	"user_code" text,
	"username" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audits_audit_code_unique" UNIQUE("audit_code")
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "permissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"permission_code" text NOT NULL,
	"permission_name" text NOT NULL,
	"permission_description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permissions_permission_code_unique" UNIQUE("permission_code"),
	CONSTRAINT "permissions_permission_name_unique" UNIQUE("permission_name")
);
--> statement-breakpoint
CREATE TABLE "role_permissions" (
	"role_code" text NOT NULL,
	"permission_code" text NOT NULL,
	CONSTRAINT "role_permissions_role_code_permission_code_pk" PRIMARY KEY("role_code","permission_code")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "roles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"role_code" text NOT NULL,
	"role_name" text NOT NULL,
	"role_description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_role_code_unique" UNIQUE("role_code")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_code" text NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_user_code_unique" UNIQUE("user_code")
);
--> statement-breakpoint
CREATE TABLE "employees" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "employees_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"employee_code" text NOT NULL,
	"employee_id" text NOT NULL,
	"name" text NOT NULL,
	"department_code" text NOT NULL,
	"join_date" date NOT NULL,
	"user_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employees_employee_code_unique" UNIQUE("employee_code")
);
--> statement-breakpoint
CREATE TABLE "profile_pictures" (
	"profile_code" text PRIMARY KEY NOT NULL,
	"original" "bytea" NOT NULL,
	"thumbnail" "bytea" NOT NULL,
	"content_type" text NOT NULL,
	"filename" text NOT NULL,
	"extension" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"profile_code" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"dob" date NOT NULL,
	"gender_code" text NOT NULL,
	"phone_number" text,
	"address_line_one" text,
	"address_line_two" text,
	"country_code" text,
	"state_code" text,
	"city_code" text,
	"postal_code" text,
	"linkedin" text,
	"twitter" text,
	"facebook" text,
	"instagram" text,
	"website_portfolio_url" text,
	"notify_email" boolean DEFAULT false NOT NULL,
	"notify_sms" boolean DEFAULT false NOT NULL,
	"notify_push" boolean DEFAULT false NOT NULL,
	"user_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_profile_code_unique" UNIQUE("profile_code")
);
--> statement-breakpoint
CREATE TABLE "performance_scores" (
	"performance_code" text NOT NULL,
	"skill_code" text NOT NULL,
	"points" smallint,
	CONSTRAINT "performance_scores_performance_code_skill_code_pk" PRIMARY KEY("performance_code","skill_code")
);
--> statement-breakpoint
CREATE TABLE "performances" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "performances_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"performance_code" text NOT NULL,
	"employee_code" text NOT NULL,
	"date" date NOT NULL,
	"daily_average" numeric(6, 4),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "performances_performance_code_unique" UNIQUE("performance_code")
);
--> statement-breakpoint
CREATE TABLE "cities" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"city_code" text NOT NULL,
	"name" text NOT NULL,
	"state_code" text NOT NULL,
	"country_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cities_city_code_unique" UNIQUE("city_code")
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "countries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"country_code" text NOT NULL,
	"name" text NOT NULL,
	"iso2" text NOT NULL,
	"iso3" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "countries_country_code_unique" UNIQUE("country_code")
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "departments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"department_code" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "departments_department_code_unique" UNIQUE("department_code")
);
--> statement-breakpoint
CREATE TABLE "genders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "genders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"gender_code" text NOT NULL,
	"gender_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "genders_gender_code_unique" UNIQUE("gender_code")
);
--> statement-breakpoint
CREATE TABLE "skills" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "skills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"skill_code" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skills_skill_code_unique" UNIQUE("skill_code")
);
--> statement-breakpoint
CREATE TABLE "states" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "states_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"state_code" text NOT NULL,
	"name" text NOT NULL,
	"iso" text NOT NULL,
	"country_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "states_state_code_unique" UNIQUE("state_code")
);
--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_role_code_roles_role_code_fk" FOREIGN KEY ("role_code") REFERENCES "public"."roles"("role_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_permission_code_permissions_permission_code_fk" FOREIGN KEY ("permission_code") REFERENCES "public"."permissions"("permission_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_code_users_user_code_fk" FOREIGN KEY ("user_code") REFERENCES "public"."users"("user_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_code_roles_role_code_fk" FOREIGN KEY ("role_code") REFERENCES "public"."roles"("role_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_user_code_users_user_code_fk" FOREIGN KEY ("user_code") REFERENCES "public"."users"("user_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_pictures" ADD CONSTRAINT "profile_pictures_profile_code_profiles_profile_code_fk" FOREIGN KEY ("profile_code") REFERENCES "public"."profiles"("profile_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_gender_code_genders_gender_code_fk" FOREIGN KEY ("gender_code") REFERENCES "public"."genders"("gender_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_country_code_countries_country_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("country_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_state_code_states_state_code_fk" FOREIGN KEY ("state_code") REFERENCES "public"."states"("state_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_city_code_cities_city_code_fk" FOREIGN KEY ("city_code") REFERENCES "public"."cities"("city_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_user_code_users_user_code_fk" FOREIGN KEY ("user_code") REFERENCES "public"."users"("user_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_scores" ADD CONSTRAINT "performance_scores_performance_code_performances_performance_code_fk" FOREIGN KEY ("performance_code") REFERENCES "public"."performances"("performance_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_scores" ADD CONSTRAINT "performance_scores_skill_code_skills_skill_code_fk" FOREIGN KEY ("skill_code") REFERENCES "public"."skills"("skill_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performances" ADD CONSTRAINT "performances_employee_code_employees_employee_code_fk" FOREIGN KEY ("employee_code") REFERENCES "public"."employees"("employee_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cities" ADD CONSTRAINT "cities_state_code_states_state_code_fk" FOREIGN KEY ("state_code") REFERENCES "public"."states"("state_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cities" ADD CONSTRAINT "cities_country_code_countries_country_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("country_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "states" ADD CONSTRAINT "states_country_code_countries_country_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("country_code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audits_action_trgm" ON "audits" USING gin ("action" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audits_collection_trgm" ON "audits" USING gin ("collection" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audits_username_trgm" ON "audits" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audits_created" ON "audits" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "permissions_name_trgm" ON "permissions" USING gin ("permission_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "role_permissions_perm" ON "role_permissions" USING btree ("permission_code");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_unique" ON "roles" USING btree (lower("role_name"));--> statement-breakpoint
CREATE INDEX "roles_name_trgm" ON "roles" USING gin ("role_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_code");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_unique" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_role" ON "users" USING btree ("role_code");--> statement-breakpoint
CREATE INDEX "users_username_trgm" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "employees_employee_id_unique" ON "employees" USING btree (lower("employee_id"));--> statement-breakpoint
CREATE UNIQUE INDEX "employees_user_unique" ON "employees" USING btree ("user_code") WHERE "employees"."user_code" is not null;--> statement-breakpoint
CREATE INDEX "employees_department" ON "employees" USING btree ("department_code","id");--> statement-breakpoint
CREATE INDEX "employees_name_trgm" ON "employees" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_employee_id_trgm" ON "employees" USING gin ("employee_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_name" ON "employees" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_user_unique" ON "profiles" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "profiles_first_name_trgm" ON "profiles" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_last_name_trgm" ON "profiles" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_gender" ON "profiles" USING btree ("gender_code");--> statement-breakpoint
CREATE INDEX "profiles_country" ON "profiles" USING btree ("country_code");--> statement-breakpoint
CREATE INDEX "profiles_state" ON "profiles" USING btree ("state_code");--> statement-breakpoint
CREATE INDEX "profiles_city" ON "profiles" USING btree ("city_code");--> statement-breakpoint
CREATE INDEX "performance_scores_skill" ON "performance_scores" USING btree ("skill_code");--> statement-breakpoint
CREATE UNIQUE INDEX "performances_employee_date" ON "performances" USING btree ("employee_code","date");--> statement-breakpoint
CREATE INDEX "performances_date" ON "performances" USING btree ("date");--> statement-breakpoint
CREATE INDEX "cities_state" ON "cities" USING btree ("state_code","id");--> statement-breakpoint
CREATE INDEX "cities_country" ON "cities" USING btree ("country_code","id");--> statement-breakpoint
CREATE INDEX "cities_name_trgm" ON "cities" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cities_name" ON "cities" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "countries_name_unique" ON "countries" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "countries_iso2_unique" ON "countries" USING btree (lower("iso2"));--> statement-breakpoint
CREATE UNIQUE INDEX "countries_iso3_unique" ON "countries" USING btree (lower("iso3"));--> statement-breakpoint
CREATE INDEX "countries_name_trgm" ON "countries" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "departments_name_unique" ON "departments" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "departments_name_trgm" ON "departments" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "genders_name_unique" ON "genders" USING btree (lower("gender_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "skills_title_unique" ON "skills" USING btree (lower("title"));--> statement-breakpoint
CREATE UNIQUE INDEX "states_iso_unique" ON "states" USING btree ("country_code",lower("iso"));--> statement-breakpoint
CREATE INDEX "states_country" ON "states" USING btree ("country_code","id");--> statement-breakpoint
CREATE INDEX "states_name_trgm" ON "states" USING gin ("name" gin_trgm_ops);