//! Rule tests of Central Madness, one position per rule.
