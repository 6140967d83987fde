//! Test faults: a way for the tests to make the search of one game fail, so that they can
//! check that the server ends that game with an error and goes on with the others
//! (docs/SERVE.md). They are armed only by the environment variable [`FAULT_VARIABLE`]
//! when the server starts, each for the game created with a given seed; a server started
//! without it has none.

/// The environment variable that arms the test faults: a comma-separated list of
/// `panic:SEED` (every search of the game seeded SEED panics), `hang:SEED` (every search of
/// that game stops answering and ignores `stop`, as a search stuck in a loop would) and
/// `overrun:SEED` (every search of that game runs with no time limit of its own, so that
/// only the server's clock stops it).
pub const FAULT_VARIABLE: &str = "SHISHI_SERVE_TEST_FAULTS";

/// What goes wrong in a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The search thread panics while it reports its progress.
    Panic,
    /// The search thread blocks while it reports its progress and never answers.
    Hang,
    /// The search is given no time limit (`go infinite`): its own time management never
    /// stops it.
    Overrun,
}

/// The faults armed, by the seed of the game they strike.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestFaults(Vec<(u64, Fault)>);

impl TestFaults {
    /// Reads [`FAULT_VARIABLE`]; unset means none.
    pub fn from_env() -> Result<TestFaults, String> {
        match std::env::var(FAULT_VARIABLE) {
            Ok(text) => TestFaults::parse(&text),
            Err(std::env::VarError::NotPresent) => Ok(TestFaults::default()),
            Err(e) => Err(format!("{FAULT_VARIABLE}: {e}")),
        }
    }

    /// Reads `panic:SEED,hang:SEED,overrun:SEED,…`.
    pub fn parse(text: &str) -> Result<TestFaults, String> {
        let mut faults = Vec::new();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let bad = || {
                format!("{FAULT_VARIABLE}: {item:?} is not panic:SEED, hang:SEED or overrun:SEED")
            };
            let (kind, seed) = item.split_once(':').ok_or_else(bad)?;
            let fault = match kind {
                "panic" => Fault::Panic,
                "hang" => Fault::Hang,
                "overrun" => Fault::Overrun,
                _ => return Err(bad()),
            };
            faults.push((seed.parse().map_err(|_| bad())?, fault));
        }
        Ok(TestFaults(faults))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The fault armed for the game seeded `seed`, if any.
    pub fn for_seed(&self, seed: u64) -> Option<Fault> {
        self.0.iter().find(|(s, _)| *s == seed).map(|(_, f)| *f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_are_read_by_seed_and_nonsense_is_refused() {
        let faults = TestFaults::parse("panic:7, hang:9,overrun:11").unwrap();
        assert_eq!(faults.for_seed(7), Some(Fault::Panic));
        assert_eq!(faults.for_seed(9), Some(Fault::Hang));
        assert_eq!(faults.for_seed(11), Some(Fault::Overrun));
        assert_eq!(faults.for_seed(8), None);
        assert!(TestFaults::parse("").unwrap().is_empty());
        for bad in ["panic", "crash:1", "panic:x", "hang:-1"] {
            assert!(TestFaults::parse(bad).is_err(), "{bad}");
        }
    }
}
