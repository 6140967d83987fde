//! The nets built into the engine, trained here and embedded in the executable so that the
//! games whose default they are need no file: standard shogi's `kp_256x2-32-32` net
//! (docs/NNUE.md, "The built-in net": `ShogiEval net`, the default), the Central Madness's
//! board's, a `kp_256x2-32-32` net fine-tuned on Madness games (docs/NNUE.md, "A Madness net
//! from the net's own games": `MadnessEval net`, the default), and Chu Kagamigi's
//! `kagamigi-p_256x2-32-32` net over its tables (docs/NNUE.md, "The first Chu Kagamigi
//! net": `KagamigiEval net`, the default), and Shogammon's `shogammon-p_256x2-32-32` net inside
//! its hand-written evaluation (docs/NNUE.md, "A Shogammon net that learned the results too":
//! `ShogammonEval net`, not the default), and Chu Shogi's `chu-p_256x2-32-32` net over its
//! tables (docs/NNUE.md, "Quiet positions only, and labels searched again": `ChuEval net`,
//! the default).

use super::features::NetGame;
use super::{file, Network};
use crate::rules::variants::Variant;
use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Standard shogi's net file, exactly as YaneuraOu would read it from `EvalDir/nn.bin`.
pub const FILE_BYTES: &[u8] = include_bytes!("builtin-kp.nn");

/// The Central Madness's board's net file, a standard shogi net as `EvalFile` would read it.
pub const MADNESS_FILE_BYTES: &[u8] = include_bytes!("builtin-madness.nn");

/// Chu Kagamigi's net file, as `KagamigiEvalFile` would read it.
pub const KAGAMIGI_FILE_BYTES: &[u8] = include_bytes!("builtin-kagamigi.nn");

/// Chu Shogi's net file, as `ChuEvalFile` would read it.
pub const CHU_FILE_BYTES: &[u8] = include_bytes!("builtin-chu.nn");

/// Shogammon's net file, as `ShogammonEvalFile` would read it.
pub const SHOGAMMON_FILE_BYTES: &[u8] = include_bytes!("builtin-shogammon.nn");

/// What stands for the built-in net where a net file or folder is named (the `EvalDir`
/// option's default, `--eval-file <builtin>`).
pub const NAME: &str = "<builtin>";

/// The file of `game`'s built-in net.
pub fn file_bytes_of(game: NetGame) -> &'static [u8] {
    match game {
        NetGame::Shogi => FILE_BYTES,
        NetGame::Kagamigi => KAGAMIGI_FILE_BYTES,
        NetGame::Shogammon => SHOGAMMON_FILE_BYTES,
        NetGame::Chu => CHU_FILE_BYTES,
    }
}

/// The net of `game` the file `path` holds ([`NAME`]: the game's built-in net) and the file's
/// bytes, or why it cannot be used (for the command-line tools' `--eval-file`).
pub fn load_named(
    path: &Path,
    game: NetGame,
) -> Result<(Arc<Network>, Cow<'static, [u8]>), String> {
    if path.as_os_str() == NAME {
        return Ok((network_of(game), Cow::Borrowed(file_bytes_of(game))));
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read the net {}: {e}", path.display()))?;
    let net = file::parse_for(&bytes, game)
        .map_err(|e| format!("cannot use the net {}: {e}", path.display()))?;
    Ok((Arc::new(net), Cow::Owned(bytes)))
}

/// The net the file `path` names for `variant` ([`NAME`]: the variant's built-in net, the
/// Madness's own for the Madness) and the file's bytes, or why it cannot be used.
pub fn load_named_for(
    path: &Path,
    variant: Variant,
) -> Result<(Arc<Network>, Cow<'static, [u8]>), String> {
    if variant == Variant::Madness && path.as_os_str() == NAME {
        return Ok((madness_network(), Cow::Borrowed(MADNESS_FILE_BYTES)));
    }
    let game = crate::eval::nets::net_game_of(variant).ok_or_else(|| {
        format!(
            "{} has no net (standard shogi, the Central Madness, Chu Shogi, Chu Kagamigi and \
             Shogammon have)",
            variant.name()
        )
    })?;
    load_named(path, game)
}

/// The Central Madness's built-in net (its board's), read from [`MADNESS_FILE_BYTES`] once.
pub fn madness_network() -> Arc<Network> {
    static MADNESS: OnceLock<Arc<Network>> = OnceLock::new();
    read_once(&MADNESS, MADNESS_FILE_BYTES, NetGame::Shogi)
}

/// Standard shogi's built-in net, read from [`FILE_BYTES`] once.
pub fn network() -> Arc<Network> {
    network_of(NetGame::Shogi)
}

/// `game`'s built-in net, read from its file once.
pub fn network_of(game: NetGame) -> Arc<Network> {
    static SHOGI: OnceLock<Arc<Network>> = OnceLock::new();
    static KAGAMIGI: OnceLock<Arc<Network>> = OnceLock::new();
    static SHOGAMMON: OnceLock<Arc<Network>> = OnceLock::new();
    static CHU: OnceLock<Arc<Network>> = OnceLock::new();
    let cell = match game {
        NetGame::Shogi => &SHOGI,
        NetGame::Kagamigi => &KAGAMIGI,
        NetGame::Shogammon => &SHOGAMMON,
        NetGame::Chu => &CHU,
    };
    read_once(cell, file_bytes_of(game), game)
}

/// The net of the embedded file `bytes` (a net of `game`'s features), read into `cell` the
/// first time it is asked for.
fn read_once(cell: &OnceLock<Arc<Network>>, bytes: &'static [u8], game: NetGame) -> Arc<Network> {
    cell.get_or_init(|| {
        // Tests read the same bytes: a build whose embedded file were unreadable fails them.
        Arc::new(file::parse_for(bytes, game).expect("a built-in net is a valid net file"))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::features::FeatureSet;
    use crate::rules::variants::shogi::Position;

    #[test]
    fn the_built_in_net_reads_and_evaluates_the_start_position_near_zero() {
        let net = network();
        assert_eq!(net.features, FeatureSet::Kp);
        let value = net.evaluate(&Position::startpos());
        assert!(value.abs() < 200, "start position {value}");
    }

    #[test]
    fn each_game_has_the_built_in_net_of_its_own_features() {
        for (game, features) in [
            (NetGame::Shogi, FeatureSet::Kp),
            (NetGame::Chu, FeatureSet::ChuP),
            (NetGame::Kagamigi, FeatureSet::KagamigiP),
            (NetGame::Shogammon, FeatureSet::ShogammonP),
        ] {
            let net = network_of(game);
            assert_eq!(net.features, features, "{}", game.name());
            let (loaded, bytes) = load_named(Path::new(NAME), game).expect("by its name");
            assert!(Arc::ptr_eq(&loaded, &net), "{}", game.name());
            assert_eq!(&*bytes, file_bytes_of(game));
        }
    }

    #[test]
    fn the_madness_has_its_own_built_in_shogi_net() {
        let madness = madness_network();
        assert_eq!(madness.features, FeatureSet::Kp);
        assert_ne!(MADNESS_FILE_BYTES, FILE_BYTES);
        let (named, bytes) = load_named_for(Path::new(NAME), Variant::Madness).unwrap();
        assert!(Arc::ptr_eq(&named, &madness));
        assert_eq!(&*bytes, MADNESS_FILE_BYTES);
        let (shogi, _) = load_named_for(Path::new(NAME), Variant::Shogi).unwrap();
        assert!(Arc::ptr_eq(&shogi, &network()));
        assert!(load_named_for(Path::new(NAME), Variant::Minishogi).is_err());
        // Its values differ from standard shogi's net's: the fine-tuning moved it.
        let pos = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        .unwrap();
        assert_ne!(madness.evaluate(&pos), network().evaluate(&pos));
    }
}
