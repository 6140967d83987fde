//! The net built into the engine: a `kp_256x2-32-32` net trained here (docs/NNUE.md, "The
//! built-in net": its data, training command and games), embedded in the executable so that
//! `ShogiEval net` (the default) plays with it and needs no file.

use super::features::NetGame;
use super::{file, Network};
use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The net's file, exactly as YaneuraOu would read it from `EvalDir/nn.bin`.
pub const FILE_BYTES: &[u8] = include_bytes!("builtin-kp.nn");

/// What stands for the built-in net where a net file or folder is named (the `EvalDir`
/// option's default, `--eval-file <builtin>`).
pub const NAME: &str = "<builtin>";

/// The net of `game` the file `path` holds ([`NAME`]: the built-in net, standard shogi's)
/// and the file's bytes, or why it cannot be used (for the command-line tools'
/// `--eval-file`).
pub fn load_named(
    path: &Path,
    game: NetGame,
) -> Result<(Arc<Network>, Cow<'static, [u8]>), String> {
    if path.as_os_str() == NAME {
        if game != NetGame::Shogi {
            return Err(format!(
                "{NAME}: the built-in net is standard shogi's; {} has none",
                game.name()
            ));
        }
        return Ok((network(), Cow::Borrowed(FILE_BYTES)));
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read the net {}: {e}", path.display()))?;
    let net = file::parse_for(&bytes, game)
        .map_err(|e| format!("cannot use the net {}: {e}", path.display()))?;
    Ok((Arc::new(net), Cow::Owned(bytes)))
}

/// The built-in net, read from [`FILE_BYTES`] once.
pub fn network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        // A test reads the same bytes: a build whose embedded file were unreadable fails it.
        Arc::new(file::parse(FILE_BYTES).expect("the built-in net is a valid nn.bin"))
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
}
