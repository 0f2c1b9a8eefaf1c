/**
 * Tables as Kysely sees them. Times are epoch milliseconds and booleans are 0/1 integers on
 * both SQLite and PostgreSQL, so every query compares and sorts the same way on both.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
}

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  photo: string | null;
  password_hash: string | null;
  timezone: string | null;
  is_admin: number;
  created_at: number;
  updated_at: number;
}

/** One row per refresh token; a family is one sign-in and every token rotated from it. */
export interface SessionsTable {
  id: string;
  family_id: string;
  user_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}
