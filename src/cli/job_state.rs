//! The state file beside a long job's output (`gensfen`, `rescore`): `FILE.state` holds the
//! settings the file was written with, how many units (games, chunks) and records it holds
//! and its length after the last whole unit. Rerunning the job with the same settings cuts
//! off what a stopped run wrote after that and continues; other settings are refused.

use crate::record::packed_sfen::RECORD_BYTES;
use std::path::{Path, PathBuf};

/// How far the output file is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The settings the file was written with, as one line.
    pub fingerprint: String,
    /// The units written whole: games (`gensfen`), chunks of searched records (`rescore`).
    pub games: u64,
    pub records: u64,
    /// The file's length after the last complete unit.
    pub bytes: u64,
}

pub fn state_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".state");
    PathBuf::from(name)
}

pub fn write_state(path: &Path, state: &State, job: &str) -> Result<(), String> {
    let text = format!(
        "# shishi {job}: the run that writes the file beside this one (delete both to \
         start over)\nsettings {}\ngames {}\nrecords {}\nbytes {}\n",
        state.fingerprint, state.games, state.records, state.bytes
    );
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn read_state(path: &Path) -> Result<Option<State>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .ok_or_else(|| format!("{} has no {name} line", path.display()))
    };
    let number = |name: &str| -> Result<u64, String> {
        field(name)?
            .trim()
            .parse()
            .map_err(|_| format!("{}: {name} is not a number", path.display()))
    };
    let records = number("records")?;
    Ok(Some(State {
        fingerprint: field("settings")?.to_string(),
        games: number("games")?,
        records,
        // State files written before the 12×12 games' lines had no length: records then.
        bytes: match field("bytes") {
            Ok(_) => number("bytes")?,
            Err(_) => records * RECORD_BYTES as u64,
        },
    }))
}

/// Opens the output where the last complete unit of an earlier run of `job` ends (cutting
/// off one cut short) and returns it with the state it continues from.
pub fn open_output(
    out: &Path,
    fingerprint: &str,
    job: &str,
) -> Result<(std::fs::File, State), String> {
    let state_file = state_path(out);
    let existing = match std::fs::metadata(out) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(format!("cannot read {}: {e}", out.display())),
    };
    let state = match read_state(&state_file)? {
        Some(state) => {
            if state.fingerprint != fingerprint {
                return Err(format!(
                    "{} was written with other settings ({}; now {fingerprint}): give another \
                     --out, or rerun with the same settings to continue it",
                    out.display(),
                    state.fingerprint
                ));
            }
            if existing < state.bytes {
                return Err(format!(
                    "{} holds {existing} bytes, less than the {} its state file counts",
                    out.display(),
                    state.bytes
                ));
            }
            state
        }
        None if existing > 0 => {
            return Err(format!(
                "{} exists without its state file {}: not a {job} run to continue (give \
                 another --out; record files can be joined with cat)",
                out.display(),
                state_file.display()
            ))
        }
        None => State {
            fingerprint: fingerprint.to_string(),
            games: 0,
            records: 0,
            bytes: 0,
        },
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
    let complete = state.bytes;
    if existing > complete {
        log::warn!(
            "{}: cutting an unfinished game or chunk ({} bytes) off the end",
            out.display(),
            existing - complete
        );
        file.set_len(complete)
            .map_err(|e| format!("cannot cut {}: {e}", out.display()))?;
    }
    write_state(&state_file, &state, job)?;
    Ok((file, state))
}
