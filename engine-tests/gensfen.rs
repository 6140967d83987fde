//! `shishi gensfen` driven as a process: the training data it writes is read back by cshogi
//! (`scripts/check_training_data.py`: every position legal, every recorded move legal, plies
//! consecutive and results alternating within a game, scores below the eval limit), the same
//! seed writes the same file whatever the thread count, a stopped run continues to the same
//! file as an unbroken one, and shards split the games of one run between them.
//!
//! The cshogi check needs `python3` with cshogi (`pip install cshogi`, as `.ci/run` does);
//! without it that one test is skipped with a message, except under CI (`CI` set), where it
//! fails.

#[path = "common/scratch_dir.rs"]
mod scratch_dir;

use scratch_dir::ScratchDir;
use shishi::eval::nnue::features::FeatureSet;
use shishi::record::packed_sfen::{TrainingRecord, RECORD_BYTES};
use shishi::rules::dropshogi::notation::SfenRules;
use shishi::rules::moves::MoveList;
use shishi::rules::variants::shogi::Position;
use std::path::Path;
use std::process::{Command, Output};

/// The settings of every run here: tiny searches, YaneuraOu's ply defaults.
const BASE: [&str; 4] = ["--nodes", "300", "--seed", "7"];

fn gensfen(out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shishi"))
        .arg("gensfen")
        .arg("--out")
        .arg(out)
        .args(BASE)
        .args(extra)
        .output()
        .expect("the binary runs")
}

fn succeeds(output: Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("the output file exists")
}

/// Asserts that two record files are equal, naming the first record that differs instead
/// of printing megabytes.
#[track_caller]
fn assert_same(a: &[u8], b: &[u8], what: &str) {
    if a != b {
        let first = a.iter().zip(b).position(|(x, y)| x != y);
        panic!(
            "{what}: {} and {} bytes, first difference in record {:?}",
            a.len(),
            b.len(),
            first.map(|i| i / RECORD_BYTES)
        );
    }
}

/// The records of `bytes` cut into games: a record continues the game of the one before it
/// when its ply is one more and a legal move leads from that position to this one.
fn games(bytes: &[u8]) -> Vec<Vec<[u8; RECORD_BYTES]>> {
    assert_eq!(bytes.len() % RECORD_BYTES, 0);
    let mut games: Vec<Vec<[u8; RECORD_BYTES]>> = Vec::new();
    let mut previous: Option<(u16, Position)> = None;
    for chunk in bytes.chunks(RECORD_BYTES) {
        let raw: [u8; RECORD_BYTES] = chunk.try_into().unwrap();
        let record = TrainingRecord::from_bytes(&raw).expect("a valid record");
        let pos = record
            .position
            .to_position(u32::from(record.game_ply) + 1)
            .expect("a legal position");
        let continues = previous.as_ref().is_some_and(|(ply, before)| {
            let mut legal = MoveList::new();
            before.generate_legal(&mut legal);
            *ply + 1 == record.game_ply
                && legal.iter().any(|&mv| {
                    let mut after = before.clone();
                    after.play(mv);
                    after.to_sfen() == pos.to_sfen()
                })
        });
        if continues {
            games.last_mut().unwrap().push(raw);
        } else {
            games.push(vec![raw]);
        }
        previous = Some((record.game_ply, pos));
    }
    games
}

#[test]
fn cshogi_reads_every_record_back_and_finds_it_consistent() {
    let dir = ScratchDir::new("shishi-gensfen", "cshogi");
    let out = dir.join("data.bin");
    let summary = succeeds(gensfen(&out, &["--games", "4", "--threads", "2"]));
    assert!(summary.contains("gensfen: 4 games"), "{summary}");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/check_training_data.py"
    );
    let check = Command::new("python3")
        .arg(script)
        .arg(&out)
        .args(["--eval-limit", "3000", "--min-ply", "15"])
        .args(["--random-moves", "0", "--games", "4"])
        .output();
    let check = match check {
        Ok(output) if output.status.code() != Some(2) => output,
        missing => {
            let why = match missing {
                Ok(output) => String::from_utf8_lossy(&output.stderr).into_owned(),
                Err(e) => format!("python3 does not run: {e}"),
            };
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must have python3 with cshogi (.ci/run installs it): {why}"
            );
            eprintln!("SKIPPED: the cshogi read-back needs python3 with cshogi: {why}");
            return;
        }
    };
    let report = succeeds(check);
    let report: serde_json::Value = serde_json::from_str(report.trim()).expect("a JSON line");
    let records = report["records"].as_u64().unwrap();
    assert_eq!(records as usize * RECORD_BYTES, read(&out).len());
    assert_eq!(report["games"], 4);
    // Within a game each record's move leads to the next record: the positions before a
    // random move are not written.
    let followed = report["followed_recorded_move"].as_u64().unwrap();
    assert_eq!(report["other_moves"], 0, "{report}");
    assert_eq!(followed, records - 4, "{report}");
    // Shishi's own reading agrees on the games.
    assert_eq!(
        games(&read(&out))
            .iter()
            .map(|g| g.len() as u64)
            .collect::<Vec<_>>(),
        report["game_lengths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_same_seed_writes_the_same_file_on_any_thread_count() {
    let dir = ScratchDir::new("shishi-gensfen", "seed");
    let (one, two, other) = (dir.join("1.bin"), dir.join("2.bin"), dir.join("o.bin"));
    succeeds(gensfen(&one, &["--games", "3"]));
    succeeds(gensfen(&two, &["--games", "3", "--threads", "2"]));
    assert_same(&read(&one), &read(&two), "one thread and two");
    assert_eq!(games(&read(&one)).len(), 3);
    // Another seed plays other games.
    let output = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args([
            "gensfen", "--nodes", "300", "--seed", "8", "--games", "3", "--out",
        ])
        .arg(&other)
        .output()
        .unwrap();
    succeeds(output);
    assert!(
        read(&one) != read(&other),
        "another seed wrote the same file"
    );
}

#[test]
fn a_stopped_run_continues_to_the_file_of_an_unbroken_one() {
    let dir = ScratchDir::new("shishi-gensfen", "resume");
    let (whole, resumed) = (dir.join("whole.bin"), dir.join("resumed.bin"));
    succeeds(gensfen(&whole, &["--games", "5"]));
    succeeds(gensfen(&resumed, &["--games", "2"]));
    let after_two = read(&resumed);
    assert!(read(&whole).starts_with(&after_two));
    // A stop in the middle of a game leaves a partial record at the end.
    let mut cut = after_two.clone();
    cut.extend_from_slice(&[0xAB; 57]);
    std::fs::write(&resumed, &cut).unwrap();
    // Other settings may not continue the file, and leave it as it was.
    let refused = gensfen(&resumed, &["--games", "5", "--random-moves", "3"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("other settings"));
    assert_same(&read(&resumed), &cut, "the refused file");
    let summary = succeeds(gensfen(&resumed, &["--games", "4", "--threads", "2"]));
    assert!(summary.contains("(2 games,"), "{summary}");
    succeeds(gensfen(&resumed, &["--games", "5"]));
    assert_same(&read(&resumed), &read(&whole), "resumed and whole");
    // Nothing more to do: the file stays.
    let summary = succeeds(gensfen(&resumed, &["--games", "5"]));
    assert!(summary.contains("(0 games, 0 positions new"), "{summary}");
    assert_same(
        &read(&resumed),
        &read(&whole),
        "after a run with nothing to do",
    );
    // A file without a state file is not continued.
    let foreign = dir.join("foreign.bin");
    std::fs::write(&foreign, &after_two).unwrap();
    let refused = gensfen(&foreign, &["--games", "5"]);
    assert!(!refused.status.success());
    assert_same(&read(&foreign), &after_two, "the foreign file");
}

#[test]
fn shards_split_the_games_of_one_run_between_them() {
    let dir = ScratchDir::new("shishi-gensfen", "shard");
    let (all, even, odd) = (dir.join("all.bin"), dir.join("0.bin"), dir.join("1.bin"));
    succeeds(gensfen(&all, &["--games", "4"]));
    succeeds(gensfen(&even, &["--games", "2", "--shard", "0/2"]));
    succeeds(gensfen(&odd, &["--games", "2", "--shard", "1/2"]));
    let (all, even, odd) = (games(&read(&all)), games(&read(&even)), games(&read(&odd)));
    assert_eq!(all.len(), 4);
    // Game k is shard k mod 2's game k / 2.
    let interleaved = vec![
        even[0].clone(),
        odd[0].clone(),
        even[1].clone(),
        odd[1].clone(),
    ];
    assert!(
        all == interleaved,
        "the games of the shards are not those of the whole run"
    );
    assert!(even.iter().all(|g| !odd.contains(g)));
    // Positions count whole games: the file reaches the target with the game that crosses it.
    let target = dir.join("target.bin");
    let first_two = (all[0].len() + all[1].len()) as u64;
    succeeds(gensfen(
        &target,
        &["--positions", &(all[0].len() as u64 + 1).to_string()],
    ));
    assert_eq!(read(&target).len() as u64, first_two * RECORD_BYTES as u64);
    for bad in ["2/2", "x", "1/0"] {
        assert!(
            !gensfen(&dir.join("bad.bin"), &["--games", "1", "--shard", bad])
                .status
                .success()
        );
    }
}

#[test]
fn quiet_only_leaves_out_exactly_the_checks_and_captures() {
    let dir = ScratchDir::new("shishi-gensfen", "quiet");
    let (all, quiet) = (dir.join("all.bin"), dir.join("quiet.bin"));
    succeeds(gensfen(&all, &["--games", "2"]));
    succeeds(gensfen(&quiet, &["--games", "2", "--quiet-only"]));
    let all = read(&all);
    let noisy = |raw: &[u8]| {
        let record = TrainingRecord::from_bytes(raw.try_into().unwrap()).unwrap();
        let pos = record.position.to_position(1).unwrap();
        let mv = record.best_move.to_move().unwrap();
        pos.in_check() || (!mv.is_drop() && pos.piece_at(mv.to()).is_some())
    };
    let expected: Vec<u8> = all
        .chunks(RECORD_BYTES)
        .filter(|r| !noisy(r))
        .flatten()
        .copied()
        .collect();
    assert!(expected.len() < all.len() && !expected.is_empty());
    assert_same(&read(&quiet), &expected, "quiet-only and the filtered file");
}

/// `nnue-features --quiet-only` on a whole run's records writes the feature file of the same
/// run made with `gensfen --quiet-only` (the games are the same; only what is written
/// differs), in standard shogi and in Chu Shogi, and counts what it left out; Shogammon, whose
/// lines start before the roll, is refused with the reason.
#[test]
fn nnue_features_quiet_only_leaves_out_what_gensfen_quiet_only_does() {
    let dir = ScratchDir::new("shishi-gensfen", "features-quiet");
    let features = |variant: &str, input: &Path, out: &Path, extra: &[&str]| -> Output {
        Command::new(env!("CARGO_BIN_EXE_shishi"))
            .args(["nnue-features", "--variant", variant])
            .arg(input)
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .expect("the binary runs")
    };
    let count = |summary: &str, field: &str| -> u64 {
        let words: Vec<&str> = summary.split_whitespace().collect();
        let at = words.iter().position(|w| *w == field).expect(field);
        words[at + 1].parse().expect("a count")
    };
    // A shogi record is RECORD_BYTES long; a Chu record is a line.
    for (variant, settings, record_bytes) in [
        ("shogi", vec!["--games", "2"], Some(RECORD_BYTES)),
        (
            "chushogi",
            vec!["--variant", "chushogi", "--max-ply", "120", "--games", "2"],
            None,
        ),
    ] {
        let (all, quiet) = (
            dir.join(format!("{variant}-all")),
            dir.join(format!("{variant}-quiet")),
        );
        succeeds(gensfen(&all, &settings));
        let quiet_settings = [settings.as_slice(), &["--quiet-only"]].concat();
        succeeds(gensfen(&quiet, &quiet_settings));
        let records = |path: &Path| -> u64 {
            let bytes = read(path);
            match record_bytes {
                Some(size) => (bytes.len() / size) as u64,
                None => bytes.iter().filter(|&&b| b == b'\n').count() as u64,
            }
        };
        let (filtered, direct) = (dir.join("filtered.feat"), dir.join("direct.feat"));
        let summary = succeeds(features(variant, &all, &filtered, &["--quiet-only"]));
        assert_eq!(
            count(&summary, "read"),
            records(&all),
            "{variant}: {summary}"
        );
        assert_eq!(
            count(&summary, "written"),
            records(&quiet),
            "{variant}: {summary}"
        );
        let noisy = count(&summary, "noisy");
        assert!(noisy > 0, "{variant}: {summary}");
        assert_eq!(
            noisy,
            records(&all) - records(&quiet),
            "{variant}: {summary}"
        );
        let summary = succeeds(features(variant, &quiet, &direct, &[]));
        assert_eq!(count(&summary, "noisy"), 0, "{variant}: {summary}");
        assert!(
            read(&filtered) == read(&direct),
            "{variant}: the filtered features differ from gensfen --quiet-only's"
        );
    }
    let shogammon = dir.join("shogammon.tsv");
    std::fs::write(&shogammon, "").unwrap();
    let refused = features(
        "shogammon",
        &shogammon,
        &dir.join("refused.feat"),
        &["--quiet-only"],
    );
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("gensfen --variant shogammon --quiet-only"),
        "{stderr}"
    );
}

/// `shishi nnue-features` turns a gensfen file into the trainer's feature file: one record
/// per usable position, in order, with the record's labels and the position's features;
/// an undecodable record is skipped and counted, a partial record at the end (a file still
/// being written) is not read, `--skip`/`--limit` take a slice, and `--sfens` writes one
/// SFEN a written position.
#[test]
fn nnue_features_turns_a_gensfen_file_into_features() {
    use shishi::eval::nnue::feature_file::{self, FeatureRecord};
    let dir = ScratchDir::new("shishi-gensfen", "features");
    let data = dir.join("data.bin");
    succeeds(gensfen(&data, &["--games", "1"]));
    let mut bytes = read(&data);
    let records = bytes.len() / RECORD_BYTES;
    assert!(records >= 10, "{records} records");
    // An undecodable record (both kings on one square) after the game, then half a record.
    let mut bad = bytes[..RECORD_BYTES].to_vec();
    bad[0] = 0;
    bad[1] = 0;
    bytes.extend_from_slice(&bad);
    bytes.extend_from_slice(&bad[..RECORD_BYTES / 2]);
    std::fs::write(&data, &bytes).unwrap();

    let (features, sfens) = (dir.join("data.feat"), dir.join("data.sfen"));
    let run = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_shishi"))
            .arg("nnue-features")
            .arg(&data)
            .arg("--out")
            .arg(&features)
            .arg("--sfens")
            .arg(&sfens)
            .args(extra)
            .output()
            .expect("the binary runs");
        succeeds(output)
    };
    let summary = run(&[]);
    assert!(
        summary.starts_with(&format!(
            "read {} written {records} skipped: undecodable 1 no-king 0 too-many-pieces 0",
            records + 1
        )),
        "{summary}"
    );
    let written = read(&features);
    feature_file::check_header(&written).unwrap();
    let body = &written[feature_file::HEADER_BYTES..];
    assert_eq!(body.len(), records * feature_file::RECORD_BYTES);
    let sfen_lines = std::fs::read_to_string(&sfens).unwrap();
    let sfen_lines: Vec<&str> = sfen_lines.lines().collect();
    assert_eq!(sfen_lines.len(), records);
    for (i, (raw, got)) in bytes
        .chunks_exact(RECORD_BYTES)
        .zip(body.chunks_exact(feature_file::RECORD_BYTES))
        .enumerate()
    {
        let record = TrainingRecord::from_bytes(raw.try_into().unwrap()).unwrap();
        // The SFEN's move number is the record's ply + 1 (ply 0 is move 1).
        let pos = record
            .position
            .to_position(u32::from(record.game_ply) + 1)
            .unwrap();
        let expected = FeatureRecord::from_position(&pos, &record).unwrap();
        assert_eq!(
            FeatureRecord::from_bytes(got.try_into().unwrap()),
            expected,
            "record {i}"
        );
        let from_line = Position::from_sfen(sfen_lines[i]).unwrap();
        assert_eq!(from_line.to_sfen(), pos.to_sfen(), "record {i}");
    }

    let summary = run(&["--skip", "3", "--limit", "4"]);
    assert!(summary.starts_with("read 4 written 4 "), "{summary}");
    let sliced = read(&features);
    assert_eq!(
        &sliced[feature_file::HEADER_BYTES..],
        &body[3 * feature_file::RECORD_BYTES..7 * feature_file::RECORD_BYTES]
    );
}

#[test]
fn a_net_plays_its_own_games_and_only_its_own_file_continues_them() {
    let dir = ScratchDir::new("shishi-gensfen", "net");
    let (hand, net) = (dir.join("hand.bin"), dir.join("net.bin"));
    succeeds(gensfen(&hand, &["--games", "2"]));
    succeeds(gensfen(&net, &["--games", "1", "--eval-file", "<builtin>"]));
    let state = std::fs::read_to_string(dir.join("net.bin.state")).unwrap();
    assert!(state.contains(" net="), "{state}");
    let with_net = read(&net);
    assert!(
        !read(&hand).starts_with(&with_net),
        "the net's game is the hand-written evaluation's"
    );
    // The same net continues the file; no net, or another net, may not.
    for other in [&[][..], &["--eval-file", "no-such-net.bin"][..]] {
        let mut args = vec!["--games", "2"];
        args.extend_from_slice(other);
        let refused = gensfen(&net, &args);
        assert!(!refused.status.success(), "{args:?} continued the file");
        assert_same(&read(&net), &with_net, "the refused file");
    }
    let missing = String::from_utf8_lossy(
        &gensfen(&net, &["--games", "2", "--eval-file", "no-such-net.bin"]).stderr,
    )
    .into_owned();
    assert!(
        missing.contains("cannot read the net no-such-net.bin"),
        "{missing}"
    );
    succeeds(gensfen(&net, &["--games", "2", "--eval-file", "<builtin>"]));
    assert_eq!(games(&read(&net)).len(), 2);
    assert!(read(&net).starts_with(&with_net));
}

#[test]
fn madness_games_are_written_with_each_movers_card_the_same_on_any_thread_count() {
    let dir = ScratchDir::new("shishi-gensfen", "madness");
    let (one, two) = (dir.join("1.bin"), dir.join("2.bin"));
    let madness = ["--variant", "madness", "--games", "3"];
    let summary = succeeds(gensfen(&one, &madness));
    assert!(summary.contains("gensfen: 3 games"), "{summary}");
    succeeds(gensfen(&two, &[&madness[..], &["--threads", "2"]].concat()));
    // The dice and cards are drawn from each game's own seed.
    assert_same(&read(&one), &read(&two), "one thread and two");
    let bytes = read(&one);
    assert!(bytes.len() >= 20 * RECORD_BYTES, "{} bytes", bytes.len());
    let (mut decoded, mut total) = (0, 0);
    for chunk in bytes.chunks(RECORD_BYTES) {
        let record = TrainingRecord::from_bytes(chunk.try_into().unwrap()).expect("a record");
        total += 1;
        // The mover's card is dealt before the first move: 1 to 10.
        assert!(
            (1..=10).contains(&record.padding),
            "card {}",
            record.padding
        );
        assert!(record.game_ply >= 15, "ply {}", record.game_ply);
        // Centipawns from the expected result: at most the evaluation's ±1767, or a mate.
        assert!(record.score.abs() <= 1767 || record.score.abs() > 31000);
        // The board is a shogi position (the madness may leave two pawns on a file) with the
        // move legal in it, unless a slide left the side not to move in check.
        let ply = u32::from(record.game_ply) + 1;
        if let Ok(pos) = record
            .position
            .to_position_with(ply, SfenRules::DoubledPawnsAllowed)
        {
            decoded += 1;
            let mv = record.best_move.to_move().expect("a move");
            let mut legal = MoveList::new();
            pos.generate_legal(&mut legal);
            assert!(legal.contains(&mv), "{} {mv:?}", pos.to_sfen());
        }
    }
    assert!(decoded * 10 >= total * 9, "{decoded} of {total} decode");
    // Madness games start from the start position.
    let refused = gensfen(
        &dir.join("openings.bin"),
        &[
            &madness[..],
            &[
                "--openings",
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/positions/openings/shogi-wide.txt"
                ),
            ],
        ]
        .concat(),
    );
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--openings is for standard shogi"));
}

/// `nnue-features --variant variant` reads each of the `lines` lines of `file` into a record of
/// the feature file of Shishi's own nets.
fn every_line_becomes_a_feature_record(variant: &str, file: &Path, lines: usize, dir: &Path) {
    let default = FeatureSet::ALL
        .into_iter()
        .find(|f| f.game().name() == variant)
        .expect("the game has a net");
    every_line_becomes_a_feature_record_of(variant, None, default, file, lines, dir);
}

/// `nnue-features --variant VARIANT [--arch ARCH]` reads every line of `file` and writes a
/// feature file whose header names `features`.
fn every_line_becomes_a_feature_record_of(
    variant: &str,
    arch: Option<&str>,
    features: FeatureSet,
    file: &Path,
    lines: usize,
    dir: &Path,
) {
    let out = dir.join("lines.feat");
    let arch_args = arch.map(|a| vec!["--arch", a]).unwrap_or_default();
    let output = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(["nnue-features", "--variant", variant])
        .args(arch_args)
        .arg(file)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("the binary runs");
    let summary = succeeds(output);
    assert!(
        summary.starts_with(&format!("read {lines} written {lines} ")),
        "{variant}: {summary}"
    );
    let bytes = read(&out);
    assert_eq!(
        bytes.len(),
        32 + lines * shishi::eval::nnue::sparse_file::RECORD_BYTES
    );
    assert_eq!(&bytes[..8], b"SHISHIFS");
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(
        (word(16), word(20)),
        (features.hash(), features.inputs() as u32)
    );
}

/// The lines of a training file of Shishi's own format, each split into its five fields.
fn training_lines(text: &str) -> Vec<Vec<String>> {
    assert!(text.is_empty() || text.ends_with('\n'));
    text.lines()
        .map(|line| line.split('\t').map(str::to_string).collect())
        .collect()
}

/// Chu Shogi and Chu Kagamigi games are written as lines (SFEN, score, ply, result, move):
/// every SFEN reads back and its move is legal there, the results of a game alternate with
/// the side to move, the same seed gives the same file on two threads, a run stopped in the
/// middle of a line goes on to the unbroken run's file, and `nnue-features` reads every line.
#[test]
fn the_12x12_games_are_written_as_lines_that_read_back() {
    use shishi::rules::notation::GameText;
    use shishi::rules::variants::{chu, kagamigi};
    fn check<P: GameText + shishi::rules::game::Game>(variant: &str) {
        let dir = ScratchDir::new("shishi-gensfen", variant);
        let (whole, two, resumed) = (
            dir.join("whole.tsv"),
            dir.join("two.tsv"),
            dir.join("resumed.tsv"),
        );
        let settings = ["--variant", variant, "--max-ply", "120"];
        let with = |extra: &[&str]| -> Vec<String> {
            settings
                .iter()
                .chain(extra)
                .map(|s| s.to_string())
                .collect()
        };
        let args = with(&["--games", "3"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        succeeds(gensfen(&whole, &args));
        let text = String::from_utf8(read(&whole)).expect("text");
        let lines = training_lines(&text);
        assert!(lines.len() > 30, "{variant}: {} lines", lines.len());
        let mut previous: Option<(u32, String)> = None;
        for fields in &lines {
            assert_eq!(fields.len(), 5, "{fields:?}");
            let pos = P::parse_sfen(&fields[0]).expect("the SFEN reads");
            let mv = pos.parse_move(&fields[4]).expect("the move reads");
            let mut legal = MoveList::new();
            pos.legal_actions(&mut legal);
            assert!(legal.contains(&mv), "{fields:?}");
            let score: i32 = fields[1].parse().unwrap();
            assert!(score.abs() <= 32000);
            let ply: u32 = fields[2].parse().unwrap();
            let result: i32 = fields[3].parse().unwrap();
            assert!([-1, 0, 1].contains(&result), "{fields:?}");
            // Consecutive plies of one game: the result changes sign with the side to move.
            if let Some((before, before_result)) = &previous {
                if *before + 1 == ply {
                    assert_eq!(before_result.parse::<i32>().unwrap(), -result, "{fields:?}");
                }
            }
            previous = Some((ply, fields[3].clone()));
        }
        // Two threads: the same file.
        let args = with(&["--games", "3", "--threads", "2"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        succeeds(gensfen(&two, &args));
        assert_eq!(read(&two), read(&whole), "{variant}: two threads");
        // Stopped after a game, with half a line written: continued to the same file.
        let args = with(&["--games", "1"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        succeeds(gensfen(&resumed, &args));
        let mut cut = read(&resumed);
        cut.extend_from_slice(b"lnsgk\t12");
        std::fs::write(&resumed, &cut).unwrap();
        let args = with(&["--games", "3"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        succeeds(gensfen(&resumed, &args));
        assert_eq!(read(&resumed), read(&whole), "{variant}: resumed");
        // Every line becomes a feature record.
        every_line_becomes_a_feature_record(variant, &whole, lines.len(), &dir);
    }
    check::<chu::Position>("chushogi");
    check::<kagamigi::Position>("chukagamigi");
}

/// Shogammon games are written as one line per turn (the SFEN before the roll, score, turn,
/// result, the turn's tokens): every SFEN reads back, the turn's roll and actions replay
/// legally from it and, for consecutive turns, lead to the next line's SFEN; the results
/// alternate with the side to roll; two threads write the same file, a stopped run goes on
/// to the unbroken run's file, and `nnue-features --variant shogammon` reads every line.
#[test]
fn shogammon_games_are_written_a_turn_a_line_and_replay() {
    use shishi::rules::game::Game;
    use shishi::rules::variants::shogammon;
    let dir = ScratchDir::new("shishi-gensfen", "shogammon");
    let (whole, two, resumed) = (
        dir.join("whole.tsv"),
        dir.join("two.tsv"),
        dir.join("resumed.tsv"),
    );
    let run = |out: &Path, extra: &[&str]| {
        let settings = [
            "--variant",
            "shogammon",
            "--max-ply",
            "80",
            "--random-moves",
            "0",
        ];
        succeeds(gensfen(out, &[&settings[..], extra].concat()))
    };
    run(&whole, &["--games", "3"]);
    let text = String::from_utf8(read(&whole)).expect("text");
    let lines = training_lines(&text);
    assert!(lines.len() > 30, "{} lines", lines.len());
    let mut replayed_into_next = 0;
    for (i, fields) in lines.iter().enumerate() {
        assert_eq!(fields.len(), 5, "{fields:?}");
        let mut pos = shogammon::Position::from_sfen(&fields[0]).expect("the SFEN reads");
        assert!(pos.awaiting_roll(), "{fields:?}");
        let score: i32 = fields[1].parse().unwrap();
        assert!(score.abs() <= 32000);
        let turn: u32 = fields[2].parse().unwrap();
        assert_eq!(turn + 1, pos.turn_number(), "{fields:?}");
        let result: i32 = fields[3].parse().unwrap();
        assert!([-1, 0, 1].contains(&result), "{fields:?}");
        let tokens: Vec<&str> = fields[4].split(' ').collect();
        assert!(
            tokens[0].starts_with("r:") && tokens.len() <= 3,
            "{fields:?}"
        );
        for token in &tokens {
            let action = pos.parse_action(token).expect("the token reads");
            let mut legal = MoveList::new();
            pos.legal_actions(&mut legal);
            assert!(legal.contains(&action), "{token} in {fields:?}");
            pos.play(action);
        }
        if let Some(next) = lines.get(i + 1) {
            if next[2].parse::<u32>().unwrap() == turn + 1 {
                assert_eq!(pos.to_sfen(), next[0], "after {fields:?}");
                assert_eq!(next[3].parse::<i32>().unwrap(), -result, "{next:?}");
                replayed_into_next += 1;
            }
        }
    }
    assert!(replayed_into_next > 25, "{replayed_into_next}");
    run(&two, &["--games", "3", "--threads", "2"]);
    assert_eq!(read(&two), read(&whole), "two threads");
    run(&resumed, &["--games", "1"]);
    let mut cut = read(&resumed);
    cut.extend_from_slice(b"lnsg(K");
    std::fs::write(&resumed, &cut).unwrap();
    run(&resumed, &["--games", "3"]);
    assert_eq!(read(&resumed), read(&whole), "resumed");
    every_line_becomes_a_feature_record("shogammon", &whole, lines.len(), &dir);
    let pk = FeatureSet::ShogammonPK;
    every_line_becomes_a_feature_record_of(
        "shogammon",
        Some("shogammon-pk"),
        pk,
        &whole,
        lines.len(),
        &dir,
    );
    // Another game's architecture is refused with the reason.
    let output = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(["nnue-features", "--variant", "shogammon", "--arch", "chu"])
        .arg(&whole)
        .arg("--out")
        .arg(dir.join("refused.feat"))
        .output()
        .expect("the binary runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("chu-p_256x2-32-32 is a chushogi net's"),
        "{stderr}"
    );
}
