//! The optional config file of `gobeyond serve` (`--config FILE`, `GOBEYOND_CONFIG`): a TOML
//! table whose keys are the serve options' long names. Its settings become flags for every
//! option that neither the command line nor the environment set, so the three sources share one
//! parser and one set of checks (docs/deploy.md, "Settings").

use std::{ffi::OsString, path::Path};

use anyhow::{Context, Result, bail};
use clap::{ArgMatches, Command, parser::ValueSource};

/// A config file larger than this is refused: settings are a few lines.
const MAX_BYTES: u64 = 64 * 1024;

/// The command line `argv` with the settings of `serve`'s config file added, when it names one;
/// `argv` unchanged otherwise. `cli` is the whole program's command; `matches` its parse of `argv`.
pub fn with_config_file(
    cli: &Command,
    matches: &ArgMatches,
    mut argv: Vec<OsString>,
) -> Result<Vec<OsString>> {
    let Some(("serve", serve_matches)) = matches.subcommand() else { return Ok(argv) };
    let Some(path) = serve_matches.get_one::<std::path::PathBuf>("config") else { return Ok(argv) };
    let serve = cli.find_subcommand("serve").context("the program has no serve command")?;
    argv.extend(flags_from_file(path, serve, serve_matches)?);
    Ok(argv)
}

/// The file's settings as flags, leaving out those the command line or environment already set.
fn flags_from_file(path: &Path, serve: &Command, given: &ArgMatches) -> Result<Vec<OsString>> {
    let shown = path.display();
    let size = std::fs::metadata(path).with_context(|| format!("reading the config file {shown}"))?.len();
    if size > MAX_BYTES {
        bail!("the config file {shown} is {size} bytes; at most {MAX_BYTES} are read");
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("reading the config file {shown}"))?;
    let table: toml::Table =
        text.parse().with_context(|| format!("the config file {shown} is not valid TOML"))?;
    let mut flags = Vec::new();
    for (key, value) in &table {
        let arg = settable(serve, key).ok_or_else(|| {
            anyhow::anyhow!(
                "the config file {shown}: unknown setting `{key}`; the settings are {}",
                names(serve)
            )
        })?;
        let source = given.value_source(arg.get_id().as_str());
        if matches!(source, Some(ValueSource::CommandLine | ValueSource::EnvVariable)) {
            continue;
        }
        let takes_value = arg.get_action().takes_values();
        for text in scalars(value).with_context(|| format!("the config file {shown}: setting `{key}`"))? {
            if takes_value {
                flags.push(OsString::from(format!("--{key}={text}")));
            } else if text == "true" {
                flags.push(OsString::from(format!("--{key}")));
            } else if text != "false" {
                bail!("the config file {shown}: setting `{key}` is true or false, not {text}");
            }
        }
    }
    Ok(flags)
}

/// The serve option a config file may set under `key`: a visible long option other than the
/// config file itself.
fn settable<'a>(serve: &'a Command, key: &str) -> Option<&'a clap::Arg> {
    serve.get_arguments().find(|a| a.get_long() == Some(key) && !a.is_hide_set() && a.get_id() != "config")
}

fn names(serve: &Command) -> String {
    let names: Vec<&str> = serve
        .get_arguments()
        .filter(|a| !a.is_hide_set() && a.get_id() != "config")
        .filter_map(|a| a.get_long())
        .filter(|l| *l != "help")
        .collect();
    names.join(", ")
}

/// A setting's values as text: one for a scalar, one per element for an array of scalars.
fn scalars(value: &toml::Value) -> Result<Vec<String>> {
    let one = |v: &toml::Value| -> Result<String> {
        Ok(match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => bail!("a setting is a string, a number, true or false, or a list of them"),
        })
    };
    match value {
        toml::Value::Array(items) => items.iter().map(one).collect(),
        scalar => Ok(vec![one(scalar)?]),
    }
}
