//! The `nn.bin` file of a `halfkp_256x2-32-32` net as YaneuraOu's NNUE edition writes and
//! reads it: what its bytes are, the hash words that name the architecture, and reading a
//! file into a [`Network`](super::Network) with a clear error for anything else.
//!
//! The file, every number little-endian:
//!
//! | field | type |
//! |---|---|
//! | version | `u32` = `0x7AF32F16` |
//! | hash of the whole net | `u32` = feature transformer hash ^ network hash |
//! | length of the architecture text, the text | `u32`, bytes |
//! | feature transformer hash | `u32` |
//! | its biases, its weights (input-major: 256 per input) | `i16[256]`, `i16[125388 × 256]` |
//! | network hash | `u32` |
//! | first hidden layer: biases, weights (output-major: 512 per output) | `i32[32]`, `i8[32 × 512]` |
//! | second hidden layer | `i32[32]`, `i8[32 × 32]` |
//! | output layer | `i32[1]`, `i8[1 × 32]` |
//!
//! and nothing after. The hashes are computed here the way the format defines them, layer by
//! layer, so a file of another architecture is told apart before its weights are read.

use super::features::INPUTS;
use super::layers::{Affine, HIDDEN, L1_INPUTS};
use super::{FeatureTransformer, Network, HALF};
use std::fmt;
use std::path::Path;

/// The version word every file of this format begins with.
pub const VERSION: u32 = 0x7AF3_2F16;

/// The hash word of the HalfKP (friend king) features.
const HALFKP_FRIEND_HASH: u32 = 0x5D69_D5B9 ^ 1;
/// The feature transformer's hash: the features' hash and its output width (two halves).
pub const TRANSFORMER_HASH: u32 = HALFKP_FRIEND_HASH ^ (2 * HALF as u32);

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
pub const FILE_HASH: u32 = TRANSFORMER_HASH ^ NETWORK_HASH;

/// The architecture text YaneuraOu writes for this net (informative: files are told apart by
/// their hashes).
pub const ARCHITECTURE: &str = "Features=HalfKP(Friend)[125388->256x2],Network=\
AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](\
AffineTransform[32<-512](InputSlice[512(0:512)])))))";

/// Why a file is not a net Shishi can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The file cannot be read.
    Io(String),
    /// The first word is not the version of this format.
    Version(u32),
    /// The hash words name another architecture.
    Hash {
        what: &'static str,
        expected: u32,
        found: u32,
        architecture: String,
    },
    /// The file ends before its last weight.
    Truncated { needed: usize, length: usize },
    /// Bytes follow the last weight.
    TrailingBytes(usize),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the file: {e}"),
            LoadError::Version(v) => write!(
                f,
                "not a NNUE file of YaneuraOu's format (version word {v:#010x}, expected {VERSION:#010x})"
            ),
            LoadError::Hash {
                what,
                expected,
                found,
                architecture,
            } => write!(
                f,
                "not a halfkp_256x2-32-32 net: {what} hash {found:#010x}, expected {expected:#010x} \
                 (the file says its architecture is {architecture:?})"
            ),
            LoadError::Truncated { needed, length } => write!(
                f,
                "the file is truncated: {length} bytes where a halfkp_256x2-32-32 net needs {needed}"
            ),
            LoadError::TrailingBytes(n) => {
                write!(f, "{n} bytes follow the net's last weight")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Reads little-endian numbers from the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Bytes a complete file has (known once the architecture text's length is read).
    needed: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], LoadError> {
        let end = self.at + n;
        let slice = self.bytes.get(self.at..end).ok_or(LoadError::Truncated {
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
        what: &'static str,
        expected: u32,
        architecture: &str,
    ) -> Result<(), LoadError> {
        let found = self.u32()?;
        if found != expected {
            return Err(LoadError::Hash {
                what,
                expected,
                found,
                architecture: architecture.to_string(),
            });
        }
        Ok(())
    }
}

/// The bytes of everything after the architecture text.
const BODY_BYTES: usize = 4
    + 2 * HALF
    + 2 * HALF * INPUTS
    + 4
    + (4 * HIDDEN + HIDDEN * L1_INPUTS)
    + (4 * HIDDEN + HIDDEN * HIDDEN)
    + (4 + HIDDEN);

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
        needed: 12 + BODY_BYTES,
    };
    let version = r.u32()?;
    if version != VERSION {
        return Err(LoadError::Version(version));
    }
    let file_hash = r.u32()?;
    let length = r.u32()? as usize;
    r.needed = 12 + length + BODY_BYTES;
    let architecture = String::from_utf8_lossy(r.take(length)?).into_owned();
    if file_hash != FILE_HASH {
        return Err(LoadError::Hash {
            what: "file",
            expected: FILE_HASH,
            found: file_hash,
            architecture,
        });
    }
    // A short file is reported as such before the weights are read.
    if bytes.len() < r.needed {
        return Err(LoadError::Truncated {
            needed: r.needed,
            length: bytes.len(),
        });
    }
    r.hash("feature transformer", TRANSFORMER_HASH, &architecture)?;
    let mut transformer = FeatureTransformer::zeroed();
    r.i16s(&mut transformer.biases.0)?;
    for row in transformer.weights.iter_mut() {
        r.i16s(&mut row.0)?;
    }
    r.hash("network", NETWORK_HASH, &architecture)?;
    let first = read_affine::<L1_INPUTS, HIDDEN>(&mut r)?;
    let second = read_affine::<HIDDEN, HIDDEN>(&mut r)?;
    let output = read_affine::<HIDDEN, 1>(&mut r)?;
    if r.at != bytes.len() {
        return Err(LoadError::TrailingBytes(bytes.len() - r.at));
    }
    Ok(Network {
        transformer,
        first,
        second,
        output,
    })
}

/// Reads the net in the file at `path`.
pub fn load(path: &Path) -> Result<Network, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io(e.to_string()))?;
    parse(&bytes)
}

/// Writes a net in the format (the test nets; YaneuraOu reads what this writes).
pub fn write(network: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(12 + ARCHITECTURE.len() + BODY_BYTES);
    let u32le = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    u32le(&mut out, VERSION);
    u32le(&mut out, FILE_HASH);
    u32le(&mut out, ARCHITECTURE.len() as u32);
    out.extend_from_slice(ARCHITECTURE.as_bytes());
    u32le(&mut out, TRANSFORMER_HASH);
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
