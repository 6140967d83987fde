//! One module per game. Each owns its pieces, position, move generation and notation, and
//! implements [`crate::rules::game::Game`].

pub mod chu;
pub mod kagamigi;
pub mod madness;
pub mod shogammon;
pub mod shogi;

/// The five games, named as `USI_Variant` and `--variant` spell them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Shogi,
    Chushogi,
    Chukagamigi,
    Shogammon,
    Madness,
}

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Shogi,
        Variant::Chushogi,
        Variant::Chukagamigi,
        Variant::Shogammon,
        Variant::Madness,
    ];

    /// The name as USI and the command line spell it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Shogi => "shogi",
            Variant::Chushogi => "chushogi",
            Variant::Chukagamigi => "chukagamigi",
            Variant::Shogammon => "shogammon",
            Variant::Madness => "madness",
        }
    }

    /// Reads a name (case-insensitive; lishogi bots send `standard` for standard shogi).
    pub fn from_name(text: &str) -> Option<Variant> {
        let text = text.trim().to_ascii_lowercase();
        if text == "standard" {
            return Some(Variant::Shogi);
        }
        Variant::ALL.into_iter().find(|v| v.name() == text)
    }
}
