//! The 40-card deck (four each of 1–10, RULES.md §5.1) and what each side knows of it.
//!
//! Two models implement [`CardModel`]:
//! * [`TrueCards`], the referee's state: both held cards, the discard pile and the draw pile
//!   as a multiset (drawing uniformly from a shuffled pile is the same as drawing a value
//!   with weight = its count, so no order and no seed is stored).
//! * [`ViewCards`], one player's information (docs/ARCHITECTURE.md, "The chance search"):
//!   its own card, the public discards and pile size, and the opponent's card only when
//!   counting locates it (after a reshuffle the player itself caused) or while a search has
//!   drawn it at a chance node.
//!
//! Counting rule of the view: the unseen multiset is `Deck − discards − every card this
//! view knows to be held`; a hidden card is uniform over it (exchangeable with the pile),
//! except when located exactly.

use super::token::{CardValue, Token};
use crate::rules::game::Weight;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::zobrist::KeyStream;

/// How many cards of each value the deck holds.
pub const COPIES_PER_VALUE: u8 = 4;

/// A multiset of card values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardCounts([u8; 10]);

impl CardCounts {
    /// The whole deck: four of each value.
    pub const DECK: CardCounts = CardCounts([COPIES_PER_VALUE; 10]);

    pub fn count(self, v: CardValue) -> u8 {
        self.0[v.index()]
    }

    pub fn total(self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    pub fn add(&mut self, v: CardValue) {
        self.0[v.index()] += 1;
    }

    /// Removes one card of value `v`; false (and no change) if there is none.
    pub fn remove(&mut self, v: CardValue) -> bool {
        match self.0[v.index()] {
            0 => false,
            n => {
                self.0[v.index()] = n - 1;
                true
            }
        }
    }

    /// `self − other`, counting down to zero at worst.
    pub fn minus(self, other: CardCounts) -> CardCounts {
        let mut out = self;
        for i in 0..10 {
            out.0[i] = out.0[i].saturating_sub(other.0[i]);
        }
        out
    }

    /// The values present, each as a `draw:N` outcome weighted by its count.
    pub fn draw_outcomes(self) -> Vec<(Move, Weight)> {
        CardValue::ALL
            .into_iter()
            .filter(|v| self.count(*v) > 0)
            .map(|v| (Token::Draw(v).to_move(), Weight(self.count(v) as u32)))
            .collect()
    }

    fn hash(self, salt: usize) -> u64 {
        let keys = keys();
        self.0
            .iter()
            .enumerate()
            .fold(0, |h, (i, &n)| h ^ keys.counts[salt][i][n as usize])
    }
}

/// Zobrist keys for the card state.
struct CardKeys {
    /// [pile, discards, unseen-by-view][value][count].
    counts: [[[u64; 41]; 10]; 3],
    /// [holder][value + 1] (0 = unknown or none).
    held: [[u64; 11]; 2],
    /// The view's "opponent card located" flag.
    located: u64,
}

fn keys() -> &'static CardKeys {
    static KEYS: std::sync::OnceLock<CardKeys> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut stream = KeyStream::new(0x4D41_4443_4152_4453);
        let mut keys = CardKeys {
            counts: [[[0; 41]; 10]; 3],
            held: [[0; 11]; 2],
            located: 0,
        };
        for table in keys.counts.iter_mut() {
            for row in table.iter_mut() {
                for key in row.iter_mut() {
                    *key = stream.next_key();
                }
            }
        }
        for row in keys.held.iter_mut() {
            for key in row.iter_mut() {
                *key = stream.next_key();
            }
        }
        keys.located = stream.next_key();
        keys
    })
}

fn held_key(holder: usize, card: Option<CardValue>) -> u64 {
    keys().held[holder][card.map_or(0, |v| v.get() as usize)]
}

/// What the game's state machine asks of a card model.
pub trait CardModel: Clone + Send + Sync + std::fmt::Debug + PartialEq {
    /// The outcomes of the chance node where `drawer` draws a card.
    fn draw_outcomes(&self, drawer: Color) -> Vec<(Move, Weight)>;
    /// Whether `token` may be played where `drawer` draws (the outcomes, and for a view,
    /// also the value of its own draw as the referee reports it).
    fn accepts_draw(&self, drawer: Color, token: Token) -> bool;
    /// The player whose view this is (`None`: the referee's, which sees every card).
    fn viewer(&self) -> Option<Color> {
        None
    }
    /// Plays an accepted draw token (reshuffling first when the pile is empty).
    fn apply_draw(&mut self, drawer: Color, token: Token);
    /// The card `holder` holds, if this model knows it.
    fn card_of(&self, holder: Color) -> Option<CardValue>;
    /// For a card this model does not know: the chance outcomes (`draw:N`, weight = count)
    /// that reveal it.
    fn reveal_outcomes(&self, holder: Color) -> Vec<(Move, Weight)>;
    /// Sets a card this model did not know (after a reveal outcome).
    fn reveal(&mut self, holder: Color, card: CardValue);
    /// Whether `holder`, whose card this model does not know, can have played `c:card`.
    fn could_hold(&self, holder: Color, card: CardValue) -> bool;
    /// `holder` plays `card` to the discard pile.
    fn discard(&mut self, holder: Color, card: CardValue);
    /// `holder` rolled instead of playing its card.
    fn after_roll(&mut self, holder: Color);
    /// The zobrist hash of the card state.
    fn hash(&self) -> u64;
}

/// The referee's card state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrueCards {
    pub pile: CardCounts,
    pub discards: CardCounts,
    /// Each side's card (`None` before the deal).
    pub held: [Option<CardValue>; 2],
}

impl Default for TrueCards {
    fn default() -> Self {
        TrueCards {
            pile: CardCounts::DECK,
            discards: CardCounts::default(),
            held: [None; 2],
        }
    }
}

impl TrueCards {
    /// The pile a draw takes from: the discards when the pile is empty (they are shuffled
    /// into a new pile first).
    fn pile_to_draw_from(&self) -> CardCounts {
        if self.pile.total() == 0 {
            self.discards
        } else {
            self.pile
        }
    }
}

impl CardModel for TrueCards {
    fn draw_outcomes(&self, _drawer: Color) -> Vec<(Move, Weight)> {
        self.pile_to_draw_from().draw_outcomes()
    }

    fn accepts_draw(&self, _drawer: Color, token: Token) -> bool {
        matches!(token, Token::Draw(v) if self.pile_to_draw_from().count(v) > 0)
    }

    fn apply_draw(&mut self, drawer: Color, token: Token) {
        let Token::Draw(v) = token else {
            panic!("the true deck draws a known card, not {token:?}");
        };
        if self.pile.total() == 0 {
            self.pile = std::mem::take(&mut self.discards);
        }
        assert!(self.pile.remove(v), "no {v:?} left to draw");
        self.held[drawer.index()] = Some(v);
    }

    fn card_of(&self, holder: Color) -> Option<CardValue> {
        self.held[holder.index()]
    }

    fn reveal_outcomes(&self, _holder: Color) -> Vec<(Move, Weight)> {
        Vec::new()
    }

    fn reveal(&mut self, _holder: Color, _card: CardValue) {
        unreachable!("the true deck knows every card");
    }

    fn could_hold(&self, holder: Color, card: CardValue) -> bool {
        self.held[holder.index()] == Some(card)
    }

    fn discard(&mut self, holder: Color, card: CardValue) {
        debug_assert_eq!(self.held[holder.index()], Some(card));
        self.held[holder.index()] = None;
        self.discards.add(card);
    }

    fn after_roll(&mut self, _holder: Color) {}

    fn hash(&self) -> u64 {
        self.pile.hash(0)
            ^ self.discards.hash(1)
            ^ held_key(0, self.held[0])
            ^ held_key(1, self.held[1])
    }
}

/// One player's knowledge of the cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ViewCards {
    /// Whose view this is.
    pub me: Color,
    /// The public discard pile.
    pub discards: CardCounts,
    /// The public size of the draw pile.
    pub pile_size: u8,
    /// My card (`None` before the deal, or in a search after I drew a card it has not yet
    /// revealed).
    pub own: Option<CardValue>,
    /// The opponent's card when known: located by counting, or drawn at a chance node of a
    /// search.
    pub opponent: Option<CardValue>,
    /// True when `opponent` is located by counting (public knowledge, kept after a roll).
    pub opponent_located: bool,
}

impl ViewCards {
    /// The view of `me` before the deal.
    pub fn new(me: Color) -> ViewCards {
        ViewCards {
            me,
            discards: CardCounts::default(),
            pile_size: CardCounts::DECK.total() as u8,
            own: None,
            opponent: None,
            opponent_located: false,
        }
    }

    /// Cards this view cannot place: the deck minus the discards and the known held cards.
    pub fn unseen(&self) -> CardCounts {
        let mut unseen = CardCounts::DECK.minus(self.discards);
        for card in [self.own, self.opponent].into_iter().flatten() {
            unseen.remove(card);
        }
        unseen
    }

    fn card_slot(&mut self, holder: Color) -> &mut Option<CardValue> {
        if holder == self.me {
            &mut self.own
        } else {
            &mut self.opponent
        }
    }
}

impl CardModel for ViewCards {
    fn viewer(&self) -> Option<Color> {
        Some(self.me)
    }

    fn draw_outcomes(&self, _drawer: Color) -> Vec<(Move, Weight)> {
        // Lazy: the drawn card is revealed only where it is used (docs/ARCHITECTURE.md, "The
        // chance search").
        vec![(Token::DrawHidden.to_move(), Weight(1))]
    }

    fn accepts_draw(&self, drawer: Color, token: Token) -> bool {
        match token {
            // A player always sees its own card: a stream that hides it is not this
            // player's (the search's own hidden draws are outcomes, not parsed tokens).
            Token::DrawHidden => drawer != self.me,
            Token::Draw(v) if drawer == self.me => {
                // From an empty pile I draw out of the reshuffled discards.
                let possible = if self.pile_size == 0 {
                    self.discards
                } else {
                    self.unseen()
                };
                possible.count(v) > 0
            }
            _ => false,
        }
    }

    fn apply_draw(&mut self, drawer: Color, token: Token) {
        if self.pile_size == 0 {
            if drawer == self.me {
                if let Some(located) = self.opponent_after_my_reshuffle() {
                    self.opponent = Some(located);
                    self.opponent_located = true;
                }
            }
            self.pile_size = self.discards.total() as u8;
            self.discards = CardCounts::default();
        }
        self.pile_size -= 1;
        let card = match token {
            Token::Draw(v) => Some(v),
            _ => None,
        };
        *self.card_slot(drawer) = card;
        if drawer != self.me {
            self.opponent_located = false;
        }
    }

    fn card_of(&self, holder: Color) -> Option<CardValue> {
        if holder == self.me {
            self.own
        } else {
            self.opponent
        }
    }

    fn reveal_outcomes(&self, _holder: Color) -> Vec<(Move, Weight)> {
        self.unseen().draw_outcomes()
    }

    fn reveal(&mut self, holder: Color, card: CardValue) {
        *self.card_slot(holder) = Some(card);
    }

    fn could_hold(&self, holder: Color, card: CardValue) -> bool {
        match self.card_of(holder) {
            Some(known) => known == card,
            None => holder != self.me && self.unseen().count(card) > 0,
        }
    }

    fn discard(&mut self, holder: Color, card: CardValue) {
        *self.card_slot(holder) = None;
        if holder != self.me {
            self.opponent_located = false;
        }
        self.discards.add(card);
    }

    fn after_roll(&mut self, holder: Color) {
        // A card drawn by a search's chance node is forgotten once the opponent keeps it,
        // so our later decisions never see it (docs/ARCHITECTURE.md, "The chance search").
        if holder != self.me && !self.opponent_located {
            self.opponent = None;
        }
    }

    fn hash(&self) -> u64 {
        self.discards.hash(1)
            ^ self.unseen().hash(2)
            ^ held_key(0, self.own)
            ^ held_key(1, self.opponent)
            ^ if self.opponent_located {
                keys().located
            } else {
                0
            }
            ^ (self.pile_size as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ if self.me == Color::Gote { 1 } else { 0 }
    }
}

impl ViewCards {
    /// When I draw from an empty pile, every card is located: the one card that is neither
    /// discarded nor mine is the opponent's (RULES.md §5.1).
    fn opponent_after_my_reshuffle(&self) -> Option<CardValue> {
        if self.opponent_located {
            return self.opponent;
        }
        let mut rest = CardCounts::DECK.minus(self.discards);
        if let Some(own) = self.own {
            rest.remove(own);
        }
        let mut values = CardValue::ALL.into_iter().filter(|v| rest.count(*v) > 0);
        match (values.next(), rest.total()) {
            (Some(v), 1) => Some(v),
            _ => None,
        }
    }
}
