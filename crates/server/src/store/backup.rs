//! Backups (docs/deploy.md, "Backups"): an SQLite database copied while the server runs
//! (`VACUUM INTO`, one consistent snapshot), and a JSON export of everything players keep —
//! accounts, games and their logs, ratings, tournaments, reviews — that either database imports
//! (how a club moves from SQLite to PostgreSQL).
//!
//! The export is JSON lines: a header, then one line per row, table by table in an order where
//! every table comes after those it refers to, read in one transaction (a consistent snapshot on
//! both databases). Sessions, pending mail tokens and the cluster's leases and secret are left
//! out: they are short-lived, and a restored server starts with none (players sign in again).

use std::{
    collections::{BTreeMap, BTreeSet},
    io::{BufRead, Write},
};

use serde_json::{Map, Value};
use sqlx::{AssertSqlSafe, Column, Row, any::AnyRow};

use super::{Backend, Store};
use crate::error::ApiError;

/// The export format's name and version, in its first line.
pub const FORMAT: &str = "gobeyond-export";
pub const VERSION: u32 = 1;

/// Tables not exported (see the module's comment).
const LEFT_OUT: [&str; 6] = ["sessions", "mail_tokens", "instances", "game_leases", "cluster", "signups"];

/// A line of an export longer than this is refused on import (a game's log row is far smaller).
const MAX_LINE: usize = 16 << 20;

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Header {
    format: String,
    version: u32,
    /// The last migration applied to the exported database: an import needs the same.
    migration: i64,
    tables: Vec<String>,
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Line {
    table: String,
    row: Map<String, Value>,
}

/// What an export or import moved.
#[derive(Debug, Default, serde::Serialize)]
pub struct Moved {
    pub rows: BTreeMap<String, u64>,
}

fn bad(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(e.to_string())
}

impl Store {
    /// Copies an SQLite database to `path` as one consistent snapshot while the server may be
    /// writing (`VACUUM INTO`); `path` must not exist.
    pub async fn backup_sqlite(&self, path: &std::path::Path) -> Result<(), ApiError> {
        if self.backend != Backend::Sqlite {
            return Err(ApiError::BadRequest(
                "a PostgreSQL database is backed up with pg_dump (docs/deploy.md, \"Backups\"), or exported as JSON"
                    .into(),
            ));
        }
        if path.exists() {
            return Err(ApiError::BadRequest(format!(
                "{} exists already: back up to a new file",
                path.display()
            )));
        }
        let target =
            path.to_str().ok_or_else(|| ApiError::BadRequest("the backup's path is not UTF-8".into()))?;
        sqlx::query("VACUUM INTO $1").bind(target).execute(&self.pool).await?;
        Ok(())
    }

    /// Accounts in the database (guests and bots too).
    pub async fn user_count(&self) -> Result<i64, ApiError> {
        Ok(sqlx::query("SELECT COUNT(*) AS n FROM users").fetch_one(&self.pool).await?.try_get("n")?)
    }

    /// Writes every table players keep to `out` as JSON lines (the module's comment).
    pub async fn export_json(&self, out: &mut impl Write) -> Result<Moved, ApiError> {
        let mut tx = self.pool.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .execute(&mut *tx)
                .await?;
        }
        let tables = self.tables_in_order(&mut tx).await?;
        let migration: i64 = sqlx::query("SELECT MAX(version) AS v FROM _sqlx_migrations")
            .fetch_one(&mut *tx)
            .await?
            .try_get("v")?;
        let header = Header { format: FORMAT.into(), version: VERSION, migration, tables: tables.clone() };
        writeln!(out, "{}", serde_json::to_string(&header).map_err(bad)?).map_err(bad)?;
        let mut moved = Moved::default();
        for table in &tables {
            // Keys first, so that an import inserts in the order the rows were made.
            let order = self.key_columns(&mut tx, table).await?.join(", ");
            let sql = format!(
                "SELECT * FROM {table}{}",
                if order.is_empty() { String::new() } else { format!(" ORDER BY {order}") }
            );
            // Safe: the table and key names come from the database's own catalog.
            let mut rows = sqlx::query(AssertSqlSafe(sql)).fetch(&mut *tx);
            use futures_util::TryStreamExt;
            while let Some(row) = rows.try_next().await? {
                let line = Line { table: table.clone(), row: row_to_json(&row)? };
                writeln!(out, "{}", serde_json::to_string(&line).map_err(bad)?).map_err(bad)?;
                *moved.rows.entry(table.clone()).or_default() += 1;
            }
        }
        out.flush().map_err(bad)?;
        tx.commit().await?;
        Ok(moved)
    }

    /// Reads an export into this database, which must hold no account yet and be at the
    /// export's migration; all or nothing (one transaction).
    pub async fn import_json(&self, input: impl BufRead) -> Result<Moved, ApiError> {
        let mut lines = input.lines();
        let first =
            lines.next().ok_or_else(|| ApiError::BadRequest("the export is empty".into()))?.map_err(bad)?;
        let header: Header = serde_json::from_str(&first)
            .map_err(|e| ApiError::BadRequest(format!("not a GoBeyond export (its first line: {e})")))?;
        if header.format != FORMAT || header.version != VERSION {
            return Err(ApiError::BadRequest(format!(
                "not a GoBeyond export this program reads: {} version {}",
                header.format, header.version
            )));
        }
        let mut tx = self.pool.begin().await?;
        let migration: i64 = sqlx::query("SELECT MAX(version) AS v FROM _sqlx_migrations")
            .fetch_one(&mut *tx)
            .await?
            .try_get("v")?;
        if migration != header.migration {
            return Err(ApiError::BadRequest(format!(
                "the export is of schema {} and this database is at {migration}: import it with the program that made it, then upgrade",
                header.migration
            )));
        }
        let users: i64 =
            sqlx::query("SELECT COUNT(*) AS n FROM users").fetch_one(&mut *tx).await?.try_get("n")?;
        if users > 0 {
            return Err(ApiError::BadRequest(
                "the database holds accounts already: import into a new one".into(),
            ));
        }
        let known: BTreeSet<String> = self.tables_in_order(&mut tx).await?.into_iter().collect();
        let mut columns: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        let mut moved = Moved::default();
        for (n, line) in lines.enumerate() {
            let line = line.map_err(bad)?;
            if line.len() > MAX_LINE {
                return Err(ApiError::BadRequest(format!("line {} of the export is too long", n + 2)));
            }
            let Line { table, row } = serde_json::from_str(&line)
                .map_err(|e| ApiError::BadRequest(format!("line {} of the export: {e}", n + 2)))?;
            if !known.contains(&table) {
                return Err(ApiError::BadRequest(format!(
                    "line {}: there is no table {table:?} here",
                    n + 2
                )));
            }
            if !columns.contains_key(&table) {
                columns.insert(table.clone(), self.column_types(&mut tx, &table).await?);
            }
            let types = &columns[&table];
            insert_row(&mut tx, self.backend, &table, types, &row).await.map_err(|e| match e {
                ApiError::Database(e) => ApiError::BadRequest(format!("line {} ({table}): {e}", n + 2)),
                other => other,
            })?;
            *moved.rows.entry(table).or_default() += 1;
        }
        if self.backend == Backend::Postgres {
            // Ids were inserted as they were: the sequences go on after the largest.
            for table in moved.rows.keys() {
                let serial = sqlx::query(
                    "SELECT CAST(column_name AS TEXT) AS column_name FROM information_schema.columns \
                     WHERE table_schema = current_schema() AND table_name = $1 AND column_default LIKE 'nextval%'",
                )
                .bind(table)
                .fetch_all(&mut *tx)
                .await?;
                for col in serial {
                    let col: String = col.try_get("column_name")?;
                    let sql = format!(
                        "SELECT setval(pg_get_serial_sequence('{table}', '{col}'), COALESCE(MAX({col}), 0) + 1, false) FROM {table}"
                    );
                    // Safe: the table is one this import wrote, the column from the catalog.
                    sqlx::query(AssertSqlSafe(sql)).execute(&mut *tx).await?;
                }
            }
        }
        tx.commit().await?;
        Ok(moved)
    }

    /// The exported tables, each after every table it refers to.
    async fn tables_in_order(&self, tx: &mut sqlx::AnyConnection) -> Result<Vec<String>, ApiError> {
        let (names_sql, refs_sql) = match self.backend {
            Backend::Sqlite => (
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%' ORDER BY name",
                "SELECT m.name AS child, f.\"table\" AS parent FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'",
            ),
            Backend::Postgres => (
                "SELECT CAST(table_name AS TEXT) AS name FROM information_schema.tables WHERE table_schema = current_schema() \
                 AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_sqlx%' ORDER BY table_name",
                "SELECT CAST(tc.table_name AS TEXT) AS child, CAST(ccu.table_name AS TEXT) AS parent FROM information_schema.table_constraints tc \
                 JOIN information_schema.constraint_column_usage ccu ON tc.constraint_name = ccu.constraint_name \
                 AND tc.table_schema = ccu.table_schema WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()",
            ),
        };
        let names: Vec<String> = sqlx::query(names_sql)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.try_get::<String, _>("name"))
            .collect::<Result<_, _>>()?;
        let mut parents: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for r in sqlx::query(refs_sql).fetch_all(&mut *tx).await? {
            let (child, parent): (String, String) = (r.try_get("child")?, r.try_get("parent")?);
            if child != parent {
                parents.entry(child).or_default().insert(parent);
            }
        }
        let wanted: Vec<String> = names.into_iter().filter(|n| !LEFT_OUT.contains(&n.as_str())).collect();
        let mut ordered: Vec<String> = Vec::new();
        while ordered.len() < wanted.len() {
            let before = ordered.len();
            for t in &wanted {
                let ready = parents
                    .get(t)
                    .is_none_or(|ps| ps.iter().all(|p| ordered.contains(p) || !wanted.contains(p)));
                if !ordered.contains(t) && ready {
                    ordered.push(t.clone());
                }
            }
            if ordered.len() == before {
                return Err(ApiError::Internal("the tables refer to each other in a cycle".into()));
            }
        }
        Ok(ordered)
    }

    /// The columns of `table`'s primary key (empty: none).
    async fn key_columns(&self, tx: &mut sqlx::AnyConnection, table: &str) -> Result<Vec<String>, ApiError> {
        let rows = match self.backend {
            Backend::Sqlite => {
                sqlx::query("SELECT name FROM pragma_table_info($1) WHERE pk > 0 ORDER BY pk")
                    .bind(table)
                    .fetch_all(&mut *tx)
                    .await?
            }
            Backend::Postgres => {
                sqlx::query(
                    "SELECT CAST(kcu.column_name AS TEXT) AS name FROM information_schema.table_constraints tc \
                     JOIN information_schema.key_column_usage kcu ON tc.constraint_name = kcu.constraint_name \
                     AND tc.table_schema = kcu.table_schema WHERE tc.constraint_type = 'PRIMARY KEY' \
                     AND tc.table_schema = current_schema() AND tc.table_name = $1 ORDER BY kcu.ordinal_position",
                )
                .bind(table)
                .fetch_all(&mut *tx)
                .await?
            }
        };
        Ok(rows.iter().map(|r| r.try_get::<String, _>("name")).collect::<Result<_, _>>()?)
    }

    /// `table`'s columns and their declared types (lower case).
    async fn column_types(
        &self,
        tx: &mut sqlx::AnyConnection,
        table: &str,
    ) -> Result<BTreeMap<String, String>, ApiError> {
        let rows = match self.backend {
            Backend::Sqlite => {
                sqlx::query("SELECT name, type FROM pragma_table_info($1)")
                    .bind(table)
                    .fetch_all(&mut *tx)
                    .await?
            }
            Backend::Postgres => {
                sqlx::query(
                    "SELECT CAST(column_name AS TEXT) AS name, CAST(data_type AS TEXT) AS type FROM information_schema.columns \
                     WHERE table_schema = current_schema() AND table_name = $1",
                )
                .bind(table)
                .fetch_all(&mut *tx)
                .await?
            }
        };
        let mut types = BTreeMap::new();
        for r in rows {
            let (name, kind): (String, String) = (r.try_get("name")?, r.try_get("type")?);
            types.insert(name, kind.to_lowercase());
        }
        Ok(types)
    }
}

/// A row as JSON: integers, floats, text and NULL are all the schema holds.
pub(super) fn row_to_json(row: &AnyRow) -> Result<Map<String, Value>, ApiError> {
    let mut out = Map::new();
    for (i, column) in row.columns().iter().enumerate() {
        let value = if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else if let Ok(v) = row.try_get::<Option<String>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else if let Ok(v) = row.try_get::<Option<bool>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else {
            return Err(ApiError::Internal(format!(
                "column {} holds a value the export does not know",
                column.name()
            )));
        };
        out.insert(column.name().to_string(), value);
    }
    Ok(out)
}

/// Inserts one exported row, each value cast to its column's type (a NULL too: PostgreSQL
/// types every parameter).
async fn insert_row(
    tx: &mut sqlx::AnyConnection,
    backend: Backend,
    table: &str,
    types: &BTreeMap<String, String>,
    row: &Map<String, Value>,
) -> Result<(), ApiError> {
    let mut names = Vec::with_capacity(row.len());
    let mut params = Vec::with_capacity(row.len());
    for (i, name) in row.keys().enumerate() {
        let kind = types
            .get(name)
            .ok_or_else(|| ApiError::BadRequest(format!("{table} has no column {name:?} here")))?;
        names.push(format!("\"{name}\""));
        params.push(match backend {
            Backend::Postgres => format!("CAST(${} AS {})", i + 1, pg_cast(kind)),
            Backend::Sqlite => format!("${}", i + 1),
        });
    }
    let sql = format!("INSERT INTO {table} ({}) VALUES ({})", names.join(", "), params.join(", "));
    // Safe: `table` is one of the database's tables and every column was found among its
    // columns above; the values are bound.
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for (name, value) in row {
        let integer = types.get(name).is_some_and(|k| k.contains("int"));
        query = match value {
            Value::Null if integer => query.bind(None::<i64>),
            Value::Null => query.bind(None::<String>),
            Value::Bool(b) => query.bind(i64::from(*b)),
            Value::Number(n) if n.is_i64() => query.bind(n.as_i64()),
            Value::Number(n) => query.bind(n.as_f64()),
            Value::String(s) => query.bind(s.clone()),
            other => return Err(ApiError::BadRequest(format!("{table}.{name} holds {other}, not a value"))),
        };
    }
    query.execute(&mut *tx).await?;
    Ok(())
}

/// The type a PostgreSQL column's value is cast to from its parameter.
fn pg_cast(kind: &str) -> &'static str {
    match kind {
        k if k.contains("bigint") => "BIGINT",
        k if k.contains("integer") => "INTEGER",
        k if k.contains("smallint") => "SMALLINT",
        k if k.contains("double") => "DOUBLE PRECISION",
        k if k.contains("real") => "REAL",
        k if k.contains("boolean") => "BOOLEAN",
        _ => "TEXT",
    }
}
