//! `--format sarif`: SARIF 2.1.0, the format code-scanning dashboards read.
//!
//! One run; one result per finding, its rule the finding code (every code is
//! listed under `tool.driver.rules`, so `ruleIndex` is known before the first
//! result); the level from the severity (info is `note`); the file as an
//! artifact location, with the line and column for syntax findings; the
//! finding's fingerprint (as in the GitLab report) as a partial fingerprint.
//! Results are written as they come, so memory does not grow with the run:
//! the log is opened on the first game and closed at the end, the tool last
//! (JSON leaves the order of an object's members free).

use std::io::{self, Write};

use serde::Serialize;

use super::fingerprint::Fingerprint;
use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};
use crate::core::findings::{Code, Finding, Severity};
use crate::core::rules::Ruleset;

/// Where the schema of the log is published.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    partial_fingerprints: Fingerprints,
    properties: Properties<'a>,
}

/// The finding's name across runs, for a dashboard to tell a new result
/// from one it has shown before: the fingerprint of the GitLab report.
#[derive(Serialize)]
struct Fingerprints {
    #[serde(rename = "sgfauditFinding/v1")]
    finding: String,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    byte_offset: u64,
}

/// What SARIF has no field for: which game, move and rulesets.
#[derive(Serialize)]
struct Properties<'a> {
    /// The input as sgfaudit names it (`ARCHIVE!ENTRY` for an archive entry).
    file: &'a str,
    game: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    r#move: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rulesets: Vec<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: &'static str,
    short_description: Text,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The file as a URI, percent-encoded: a relative reference for a relative
/// path, a `file` URI for an absolute one (a path beginning with `/` is no
/// absolute URI: GitHub's upload would read it below the repository, where it
/// makes a `file` URI relative to the checkout). An archive entry points at
/// its archive; the entry is named in the result's properties. A name that
/// is not UTF-8 (printed with `\xHH` escapes) is encoded from its own bytes.
fn uri(path: &str) -> String {
    let file = crate::input::on_disk(super::file_on_disk(path));
    let bytes = crate::input::path_bytes(&file);
    let encoded = super::percent_encode_path(&bytes);
    if bytes.starts_with(b"/") {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

pub struct SarifReporter<W: Write> {
    out: W,
    /// The log has been opened (its header written).
    opened: bool,
    /// A result has been written (the next one needs a comma).
    any_result: bool,
}

impl<W: Write> SarifReporter<W> {
    pub fn new(out: W) -> Self {
        SarifReporter {
            out,
            opened: false,
            any_result: false,
        }
    }

    fn open(&mut self) -> io::Result<()> {
        if !self.opened {
            self.opened = true;
            write!(
                self.out,
                "{{\"$schema\":\"{SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{{\"results\":["
            )?;
        }
        Ok(())
    }

    fn result(
        &mut self,
        file: &FileInfo,
        game: &GameReport,
        f: &Finding,
        print: Fingerprint,
    ) -> io::Result<()> {
        let result = SarifResult {
            rule_id: f.code.id(),
            rule_index: Code::ALL.iter().position(|&c| c == f.code).unwrap_or(0),
            level: level(f.severity),
            message: Text {
                text: f.message.clone(),
            },
            locations: [Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: uri(&file.path),
                    },
                    region: super::place_on_disk(&file.path, f).map(|l| Region {
                        start_line: l.line,
                        start_column: l.column,
                        byte_offset: l.offset,
                    }),
                },
            }],
            partial_fingerprints: Fingerprints {
                finding: print.to_string(),
            },
            properties: Properties {
                file: &file.path,
                game: game.index,
                r#move: f.move_number,
                rulesets: Ruleset::ALL
                    .into_iter()
                    .filter(|r| f.rulesets.contains(*r))
                    .map(Ruleset::key)
                    .collect(),
            },
        };
        if self.any_result {
            self.out.write_all(b",")?;
        }
        self.any_result = true;
        self.out.write_all(b"\n")?;
        serde_json::to_writer(&mut self.out, &result).map_err(io::Error::from)
    }
}

impl<W: Write> Reporter for SarifReporter<W> {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        self.open()?;
        let prints = super::fingerprint::of_game(&file.path, game);
        for (f, print) in game.findings.iter().zip(prints) {
            self.result(file, game, f, print)?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.open()?;
        let tool = Tool {
            driver: Driver {
                name: "sgfaudit",
                version: env!("CARGO_PKG_VERSION"),
                rules: Code::ALL
                    .iter()
                    .map(|&c| Rule {
                        id: c.id(),
                        name: c.name(),
                        short_description: Text {
                            text: c.description().to_string(),
                        },
                        default_configuration: Configuration {
                            level: level(c.severity()),
                        },
                    })
                    .collect(),
            },
        };
        self.out.write_all(b"\n],\"tool\":")?;
        serde_json::to_writer(&mut self.out, &tool).map_err(io::Error::from)?;
        self.out.write_all(b"}]}\n")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn uris_are_percent_encoded_paths() {
        assert_eq!(uri("games/a b#1.sgf"), "games/a%20b%231.sgf");
        assert_eq!(uri("k.zip!2019/x.sgf"), "k.zip");
        assert_eq!(uri("wow!.sgf"), "wow%21.sgf");
        assert_eq!(uri("棋.sgf"), "%E6%A3%8B.sgf");
        assert_eq!(uri("a:b.sgf"), "a%3Ab.sgf");
        assert_eq!(uri("/srv/go games/x.sgf"), "file:///srv/go%20games/x.sgf");
        assert_eq!(uri("/srv/k.zip!2019/x.sgf"), "file:///srv/k.zip");
    }
}
