//! `shishi rescore` driven as a process, on data `shishi gensfen` wrote: each written record
//! is the chosen input's position with the result and ply it had, and the move and score a
//! fresh search at the same limits gives there; `--every` and `--shard` choose the records they
//! name, `--quiet-only` leaves out the noisy ones (`record::quiet`), two threads write the
//! same file as one, and a run stopped in the middle continues to the unbroken run's file.

#[path = "common/scratch_dir.rs"]
mod scratch_dir;

use scratch_dir::ScratchDir;
use shishi::record::packed_sfen::{TrainingRecord, RECORD_BYTES};
use shishi::record::quiet::board12_is_noisy;
use shishi::rules::notation::GameText;
use shishi::rules::variants::chu;
use shishi::search::game::SearchGame;
use shishi::search::{Config, Control, Decision, Limits, Score, Searcher};
use std::path::Path;
use std::process::{Command, Output};

fn shishi(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .args(files)
        .output()
        .expect("the binary runs")
}

fn succeeds(output: Output) {
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("the file exists")
}

/// The move and score (as a record writes it) of a fresh search of `pos` at `nodes`.
fn fresh_search<G: SearchGame>(pos: &G, nodes: u64) -> (shishi::rules::moves::Move, i16) {
    let mut searcher = Searcher::new(4);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let decision = searcher.search(
        pos,
        &limits,
        &Config::default(),
        &Control::new(false),
        &mut |_| {},
    );
    let Decision::Move { best, .. } = decision else {
        panic!("a position with moves gets one");
    };
    let score = match searcher.last_score().expect("a score") {
        Score::Cp(cp) => cp.clamp(-30000, 30000),
        Score::Mate(plies) if plies > 0 => 32000 - plies,
        Score::Mate(plies) => -32000 - plies,
    };
    (best, score as i16)
}

#[test]
fn rescore_searches_again_the_records_it_is_asked_for() {
    let dir = ScratchDir::new("shishi-rescore", "shogi");
    let data = dir.join("data.bin");
    succeeds(shishi(
        &[
            "gensfen", "--nodes", "300", "--seed", "7", "--games", "2", "--out",
        ],
        &[&data],
    ));
    let input = read(&data);
    let inputs: Vec<&[u8]> = input.chunks_exact(RECORD_BYTES).collect();
    let rescore = |out: &Path, extra: &[&str]| {
        let args = [
            &[
                "rescore", "--nodes", "500", "--every", "3", "--shard", "1/2",
            ][..],
            extra,
            &["--out"],
        ]
        .concat();
        shishi(&args, &[out, &data])
    };
    let one = dir.join("one.bin");
    succeeds(rescore(&one, &[]));
    let output = read(&one);
    // Every third record, and of those the odd ones: inputs 3, 9, 15, …
    let chosen: Vec<&[u8]> = inputs
        .iter()
        .copied()
        .step_by(3)
        .skip(1)
        .step_by(2)
        .collect();
    assert!(chosen.len() >= 4, "{} chosen", chosen.len());
    assert_eq!(output.len(), chosen.len() * RECORD_BYTES);
    let mut changed = 0;
    for (raw_in, raw_out) in chosen.iter().zip(output.chunks_exact(RECORD_BYTES)) {
        let before = TrainingRecord::from_bytes((*raw_in).try_into().unwrap()).unwrap();
        let after = TrainingRecord::from_bytes(raw_out.try_into().unwrap()).unwrap();
        assert_eq!(after.position, before.position);
        assert_eq!(
            (after.game_ply, after.result),
            (before.game_ply, before.result)
        );
        let pos = after
            .position
            .to_position(u32::from(after.game_ply) + 1)
            .unwrap();
        let (best, score) = fresh_search(&pos, 500);
        assert_eq!(after.best_move.to_move(), Some(best));
        assert_eq!(after.score, score);
        changed += usize::from(after.score != before.score);
    }
    assert!(changed > 0, "no score changed from 300 to 500 nodes");
    // Two threads write the same file.
    let two = dir.join("two.bin");
    succeeds(rescore(&two, &["--threads", "2"]));
    assert!(read(&two) == output, "two threads wrote another file");
    // Stopped after a few records with half a record written: continued to the same file.
    let resumed = dir.join("resumed.bin");
    succeeds(rescore(&resumed, &["--limit", "3"]));
    let mut cut = read(&resumed);
    assert_eq!(cut.len(), 3 * RECORD_BYTES);
    cut.extend_from_slice(&[7; RECORD_BYTES / 2]);
    std::fs::write(&resumed, &cut).unwrap();
    succeeds(rescore(&resumed, &[]));
    assert!(
        read(&resumed) == output,
        "the resumed run wrote another file"
    );
    // Other settings do not continue the file.
    let refused = rescore(&resumed, &["--hash", "8"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("other settings"));
}

#[test]
fn rescore_quiet_only_searches_the_quiet_lines_of_a_12x12_game() {
    let dir = ScratchDir::new("shishi-rescore", "chu");
    let data = dir.join("data.tsv");
    succeeds(shishi(
        &[
            "gensfen",
            "--variant",
            "chushogi",
            "--nodes",
            "300",
            "--seed",
            "7",
            "--games",
            "1",
            "--max-ply",
            "100",
            "--out",
        ],
        &[&data],
    ));
    let out = dir.join("out.tsv");
    succeeds(shishi(
        &[
            "rescore",
            "--variant",
            "chushogi",
            "--nodes",
            "400",
            "--quiet-only",
            "--out",
        ],
        &[&out, &data],
    ));
    let input = String::from_utf8(read(&data)).unwrap();
    let quiet: Vec<Vec<&str>> = input
        .lines()
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .filter(|fields| {
            let pos = chu::Position::parse_sfen(fields[0]).unwrap();
            !board12_is_noisy(&pos, pos.parse_move(fields[4]).unwrap())
        })
        .collect();
    let output = String::from_utf8(read(&out)).unwrap();
    let written: Vec<Vec<&str>> = output
        .lines()
        .map(|line| line.split('\t').collect())
        .collect();
    assert!(quiet.len() < input.lines().count() && quiet.len() > 10);
    assert_eq!(written.len(), quiet.len());
    for (before, after) in quiet.iter().zip(&written) {
        assert_eq!(
            (after[0], after[2], after[3]),
            (before[0], before[2], before[3])
        );
        let pos = chu::Position::parse_sfen(after[0]).unwrap();
        let (best, score) = fresh_search(&pos, 400);
        assert_eq!(after[4], pos.move_text(best));
        assert_eq!(after[1], score.to_string());
    }
}
