/**
 * `LIKE` on user input, the same on both databases: SQLite has no default escape character and MySQL's is the
 * backslash, so every pattern names `!` as its escape (`column LIKE :pattern ESCAPE '!'`).
 */
export const LIKE_ESCAPE = "ESCAPE '!'";

/** A pattern matching values that contain `text` literally (its `%` and `_` are not wildcards). */
export function likeContaining(text: string): string {
  return `%${text.replace(/[!%_]/g, (char) => `!${char}`)}%`;
}

/** A pattern matching values that start with `text` literally. */
export function likeStartingWith(text: string): string {
  return `${text.replace(/[!%_]/g, (char) => `!${char}`)}%`;
}
