/** Which database the storage runs on: SQLite by default, PostgreSQL when `DATABASE_URL` names one. */
export type Dialect = 'sqlite' | 'postgres';
