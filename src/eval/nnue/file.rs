//! The `nn.bin` file of a `halfkp_256x2-32-32` or `kp_256x2-32-32` net as YaneuraOu's NNUE
//! editions write and read it: what its bytes are, the hash words that name the
//! architecture, and reading a file into a [`Network`](super::Network) with a clear error
//! for anything else. The architectures differ only in their features (the transformer's
//! hash and its number of rows: 125 388 for HalfKP, 1 710 for K+P); Shishi's nets for the
//! 12×12 games are files of the same format with their own features (`board12`).
//!
//! The file, every number little-endian:
//!
//! | field | type |
//! |---|---|
//! | version | `u32` = `0x7AF32F16` |
//! | hash of the whole net | `u32` = feature transformer hash ^ network hash |
//! | length of the architecture text, the text | `u32`, bytes |
//! | feature transformer hash | `u32` |
//! | its biases, its weights (input-major: 256 per input) | `i16[256]`, `i16[inputs × 256]` |
//! | network hash | `u32` |
//! | first hidden layer: biases, weights (output-major: 512 per output) | `i32[32]`, `i8[32 × 512]` |
//! | second hidden layer | `i32[32]`, `i8[32 × 32]` |
//! | output layer | `i32[1]`, `i8[1 × 32]` |
//!
//! and nothing after. The hashes are computed here the way the format defines them, layer by
//! layer, so the architecture is known, and a file of another one told apart, before its
//! weights are read.

use super::features::{FeatureSet, NetGame};
use super::layers::{Affine, HIDDEN, L1_INPUTS};
use super::{FeatureTransformer, Network, HALF};
use std::fmt;
use std::path::Path;

/// The version word every file of this format begins with.
pub const VERSION: u32 = 0x7AF3_2F16;

/// The feature transformer's hash: the features' hash and its output width (two halves).
pub const fn transformer_hash(features: FeatureSet) -> u32 {
    features.hash() ^ (2 * HALF as u32)
}

/// The hash of an affine layer of `outputs` outputs after a layer of hash `previous`.
const fn affine_hash(outputs: u32, previous: u32) -> u32 {
    let mut hash = 0xCC03_DAE4u32.wrapping_add(outputs);
    hash ^= previous >> 1;
    hash ^= previous << 31;
    hash
}

/// The hash of a clipped ReLU after a layer of hash `previous`.
const fn clipped_relu_hash(previous: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(previous)
}

/// The network's hash: the slice of the transformed features (all 512 of them), affine to
/// 32, clipped ReLU, affine to 32, clipped ReLU, affine to 1.
pub const NETWORK_HASH: u32 = {
    let input_slice = 0xEC42_E90Du32 ^ (L1_INPUTS as u32);
    let first = clipped_relu_hash(affine_hash(HIDDEN as u32, input_slice));
    let second = clipped_relu_hash(affine_hash(HIDDEN as u32, first));
    affine_hash(1, second)
};

/// The hash of the whole net, the second word of the file.
pub const fn file_hash(features: FeatureSet) -> u32 {
    transformer_hash(features) ^ NETWORK_HASH
}

/// The architecture's name, as YaneuraOu's sources name it.
pub const fn architecture_name(features: FeatureSet) -> &'static str {
    match features {
        FeatureSet::HalfKp => "halfkp_256x2-32-32",
        FeatureSet::Kp => "kp_256x2-32-32",
        FeatureSet::ChuP => "chu-p_256x2-32-32",
        FeatureSet::ChuPK => "chu-pk_256x2-32-32",
        FeatureSet::KagamigiP => "kagamigi-p_256x2-32-32",
        FeatureSet::ShogammonP => "shogammon-p_256x2-32-32",
        FeatureSet::ShogammonPK => "shogammon-pk_256x2-32-32",
    }
}

/// The layers after the feature transformer, as the architecture text names them.
const NETWORK_TEXT: &str = "Network=AffineTransform[1<-32](ClippedReLU[32](\
AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";

/// The architecture text written in the file (informative: files are told apart by their
/// hashes), e.g. `Features=K+P[1710->256x2],Network=…`.
pub fn architecture_text(features: FeatureSet) -> String {
    format!(
        "Features={}[{}->{HALF}x2],{NETWORK_TEXT}",
        features.name(),
        features.inputs()
    )
}

/// The names of the architectures read, for messages.
fn architecture_names() -> String {
    let names: Vec<&str> = FeatureSet::ALL
        .iter()
        .map(|&f| architecture_name(f))
        .collect();
    names.join(" or ")
}

/// Why a file is not a net Shishi can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The file cannot be read.
    Io(String),
    /// The first word is not the version of this format.
    Version(u32),
    /// The net's hash is none of the architectures read.
    Architecture { found: u32, architecture: String },
    /// A layer's hash word is not the one of the architecture the file's hash names.
    Hash {
        net: &'static str,
        what: &'static str,
        expected: u32,
        found: u32,
        architecture: String,
    },
    /// The file ends before its last weight (`net`: the architecture, once the header names
    /// it).
    Truncated {
        net: Option<&'static str>,
        needed: usize,
        length: usize,
    },
    /// Bytes follow the last weight.
    TrailingBytes(usize),
    /// A good net, but of another game than the one it was loaded for.
    OtherGame {
        net: &'static str,
        found: NetGame,
        wanted: NetGame,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the file: {e}"),
            LoadError::Version(v) => write!(
                f,
                "not a NNUE file of YaneuraOu's format (version word {v:#010x}, expected {VERSION:#010x})"
            ),
            LoadError::Architecture {
                found,
                architecture,
            } => {
                let expected: Vec<String> = FeatureSet::ALL
                    .iter()
                    .map(|&fs| format!("{:#010x}", file_hash(fs)))
                    .collect();
                write!(
                    f,
                    "not a {} net: file hash {found:#010x}, expected {} \
                     (the file says its architecture is {architecture:?})",
                    architecture_names(),
                    expected.join(" or ")
                )
            }
            LoadError::Hash {
                net,
                what,
                expected,
                found,
                architecture,
            } => write!(
                f,
                "not a {net} net: {what} hash {found:#010x}, expected {expected:#010x} \
                 (the file says its architecture is {architecture:?})"
            ),
            LoadError::Truncated {
                net,
                needed,
                length,
            } => match net {
                Some(net) => write!(
                    f,
                    "the file is truncated: {length} bytes where a {net} net needs {needed}"
                ),
                None => write!(
                    f,
                    "the file is truncated: {length} bytes, shorter than its header ({needed})"
                ),
            },
            LoadError::TrailingBytes(n) => {
                write!(f, "{n} bytes follow the net's last weight")
            }
            LoadError::OtherGame { net, found, wanted } => write!(
                f,
                "a {net} net evaluates {}, not {}",
                found.name(),
                wanted.name()
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Reads little-endian numbers from the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Bytes a complete file has, and its architecture (known once the header is read).
    needed: usize,
    net: Option<&'static str>,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], LoadError> {
        let end = self.at + n;
        let slice = self.bytes.get(self.at..end).ok_or(LoadError::Truncated {
            net: self.net,
            needed: self.needed.max(end),
            length: self.bytes.len(),
        })?;
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32, LoadError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, out: &mut [i16]) -> Result<(), LoadError> {
        let b = self.take(2 * out.len())?;
        for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
            *o = i16::from_le_bytes([pair[0], pair[1]]);
        }
        Ok(())
    }

    fn i32s(&mut self, out: &mut [i32]) -> Result<(), LoadError> {
        let b = self.take(4 * out.len())?;
        for (o, quad) in out.iter_mut().zip(b.chunks_exact(4)) {
            *o = i32::from_le_bytes([quad[0], quad[1], quad[2], quad[3]]);
        }
        Ok(())
    }

    fn i8s(&mut self, out: &mut [i8]) -> Result<(), LoadError> {
        let b = self.take(out.len())?;
        for (o, &byte) in out.iter_mut().zip(b) {
            *o = byte as i8;
        }
        Ok(())
    }

    fn hash(
        &mut self,
        features: FeatureSet,
        what: &'static str,
        expected: u32,
        architecture: &str,
    ) -> Result<(), LoadError> {
        let found = self.u32()?;
        if found != expected {
            return Err(LoadError::Hash {
                net: architecture_name(features),
                what,
                expected,
                found,
                architecture: architecture.to_string(),
            });
        }
        Ok(())
    }
}

/// The bytes of the header before the architecture text.
const HEADER_BYTES: usize = 12;

/// The bytes of everything after the architecture text.
const fn body_bytes(features: FeatureSet) -> usize {
    4 + 2 * HALF
        + 2 * HALF * features.inputs()
        + 4
        + (4 * HIDDEN + HIDDEN * L1_INPUTS)
        + (4 * HIDDEN + HIDDEN * HIDDEN)
        + (4 + HIDDEN)
}

/// Reads an affine layer's biases and output-major weights.
fn read_affine<const IN: usize, const OUT: usize>(
    r: &mut Reader,
) -> Result<Affine<IN, OUT>, LoadError> {
    let mut biases = [0i32; OUT];
    r.i32s(&mut biases)?;
    let mut rows = vec![[0i8; IN]; OUT];
    for row in rows.iter_mut() {
        r.i8s(row)?;
    }
    Ok(Affine::from_rows(biases, &rows))
}

/// Reads a net from the bytes of its file.
pub fn parse(bytes: &[u8]) -> Result<Network, LoadError> {
    let mut r = Reader {
        bytes,
        at: 0,
        needed: HEADER_BYTES,
        net: None,
    };
    let version = r.u32()?;
    if version != VERSION {
        return Err(LoadError::Version(version));
    }
    let found = r.u32()?;
    let length = r.u32()? as usize;
    r.needed = HEADER_BYTES + length;
    let architecture = String::from_utf8_lossy(r.take(length)?).into_owned();
    let Some(features) = FeatureSet::ALL
        .into_iter()
        .find(|&fs| file_hash(fs) == found)
    else {
        return Err(LoadError::Architecture {
            found,
            architecture,
        });
    };
    r.needed = HEADER_BYTES + length + body_bytes(features);
    r.net = Some(architecture_name(features));
    // A short file is reported as such before the weights are read.
    if bytes.len() < r.needed {
        return Err(LoadError::Truncated {
            net: r.net,
            needed: r.needed,
            length: bytes.len(),
        });
    }
    r.hash(
        features,
        "feature transformer",
        transformer_hash(features),
        &architecture,
    )?;
    let mut transformer = FeatureTransformer::zeroed(features);
    r.i16s(&mut transformer.biases.0)?;
    for row in transformer.weights.iter_mut() {
        r.i16s(&mut row.0)?;
    }
    r.hash(features, "network", NETWORK_HASH, &architecture)?;
    let first = read_affine::<L1_INPUTS, HIDDEN>(&mut r)?;
    let second = read_affine::<HIDDEN, HIDDEN>(&mut r)?;
    let output = read_affine::<HIDDEN, 1>(&mut r)?;
    if r.at != bytes.len() {
        return Err(LoadError::TrailingBytes(bytes.len() - r.at));
    }
    Ok(Network {
        features,
        transformer,
        first,
        second,
        output,
    })
}

/// Reads a net of `game` from the bytes of its file.
pub fn parse_for(bytes: &[u8], game: NetGame) -> Result<Network, LoadError> {
    let net = parse(bytes)?;
    if net.features.game() != game {
        return Err(LoadError::OtherGame {
            net: architecture_name(net.features),
            found: net.features.game(),
            wanted: game,
        });
    }
    Ok(net)
}

/// Reads the net of `game` in the file at `path`.
pub fn load_for(path: &Path, game: NetGame) -> Result<Network, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io(e.to_string()))?;
    parse_for(&bytes, game)
}

/// Writes a net in the format (the test nets; YaneuraOu reads what this writes).
pub fn write(network: &Network) -> Vec<u8> {
    let features = network.features;
    let text = architecture_text(features);
    let mut out = Vec::with_capacity(HEADER_BYTES + text.len() + body_bytes(features));
    let u32le = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    u32le(&mut out, VERSION);
    u32le(&mut out, file_hash(features));
    u32le(&mut out, text.len() as u32);
    out.extend_from_slice(text.as_bytes());
    u32le(&mut out, transformer_hash(features));
    let t = &network.transformer;
    for row in std::iter::once(&t.biases).chain(t.weights.iter()) {
        for v in row.0 {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    u32le(&mut out, NETWORK_HASH);
    network.first.write(&mut out);
    network.second.write(&mut out);
    network.output.write(&mut out);
    out
}
