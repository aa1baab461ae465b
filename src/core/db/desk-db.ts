import type Database from 'better-sqlite3';

/** The library's database connection; its own module so the modules open.ts uses can name it without a circle. */
export type DeskDb = Database.Database;
