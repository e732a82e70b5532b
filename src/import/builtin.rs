//! Fairy-Stockfish's built-in variants that a section may name as its parent.
//!
//! Fairy-Stockfish defines its built-in variants in C++ (`variant.cpp`), not in its variants.ini
//! format. Those whose every rule import can state are restated here as sections of that format
//! ([`BUILTIN_INI`]), option for option as `variant.cpp` sets them, and go through the same
//! reading as a user's sections: a built-in parent adds no mapping of its own, so a child of it
//! is exact exactly when a section written out in full would be. The other built-in names are
//! listed ([`BUILTIN_NAMES`]) so that a section named like one, or a child of one import does not
//! restate, is refused with that reason.

use super::ini;
use super::rules::Rules;

/// The built-in variants import restates, in Fairy-Stockfish's variants.ini format (`chess` and
/// `crazyhouse` are in [`Rules`] itself). Each one's options are those `variant.cpp` sets.
const BUILTIN_INI: &str = "
[giveaway:chess]
king = -
commoner = k
castlingKingPiece = k
promotionPieceTypes = kqrbn
stalemateValue = win
extinctionValue = win
extinctionPieceTypes = *
mustCapture = true

[antichess:giveaway]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
castling = false

[suicide:antichess]

[losers:chess]
checkmateValue = win
stalemateValue = win
extinctionValue = win
extinctionPieceTypes = *
extinctionPieceCount = 1
mustCapture = true

[kingofthehill:chess]
flagPiece = k
flagRegion = d4 e4 d5 e5

[3check:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1
checkCounting = true

[5check:3check]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5+5 0 1

[extinction:chess]
king = -
commoner = k
castlingKingPiece = k
promotionPieceTypes = kqrbn
extinctionValue = loss
extinctionPieceTypes = kqrbnp

[breakthrough]
breakthrough = p
startFen = pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1
doubleStep = false
castling = false
stalemateValue = loss
flagPiece = p
flagRegionWhite = *8
flagRegionBlack = *1

[gardner:chess]
maxRank = 5
maxFile = 5
startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1
promotionRegionWhite = *5
promotionRegionBlack = *1
doubleStep = false
castling = false

[losalamos:chess]
maxRank = 6
maxFile = 6
bishop = -
startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1
promotionRegionWhite = *6
promotionRegionBlack = *1
promotionPieceTypes = qrn
doubleStep = false
castling = false

[capablanca:chess]
maxFile = 10
castlingKingsideFile = i
castlingQueensideFile = c
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotionPieceTypes = acqrbn

[janus:chess]
maxFile = 10
castlingKingsideFile = i
castlingQueensideFile = b
archbishop = j
startFen = rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1
promotionPieceTypes = jqrbn

[nocheckatomic:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
blastOnCapture = true

[atomic:nocheckatomic]
extinctionPseudoRoyal = true

[pocketknight:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1
pieceDrops = true
capturesToHand = false

[nocastle:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
castling = false
";

/// Every variant Fairy-Stockfish has built in (a section may not take one's name).
pub const BUILTIN_NAMES: [&str; 121] = [
    "chess",
    "normal",
    "fischerandom",
    "nocastle",
    "armageddon",
    "torpedo",
    "berolina",
    "pawnsideways",
    "pawnback",
    "legan",
    "fairy",
    "makruk",
    "makpong",
    "cambodian",
    "karouk",
    "asean",
    "ai-wok",
    "shatranj",
    "chaturanga",
    "amazon",
    "georgian",
    "nightrider",
    "grasshopper",
    "hoppelpoppel",
    "newzealand",
    "kingofthehill",
    "racingkings",
    "knightmate",
    "misere",
    "losers",
    "giveaway",
    "antichess",
    "suicide",
    "codrus",
    "extinction",
    "kinglet",
    "threekings",
    "horde",
    "petrified",
    "nocheckatomic",
    "atomic",
    "atomar",
    "isolation",
    "isolation7x7",
    "snailtrail",
    "fox-and-hounds",
    "duck",
    "joust",
    "3check",
    "5check",
    "crazyhouse",
    "loop",
    "chessgi",
    "bughouse",
    "koedem",
    "pocketknight",
    "placement",
    "sittuyin",
    "seirawan",
    "shouse",
    "dragon",
    "paradigm",
    "minishogi",
    "mini",
    "kyotoshogi",
    "micro",
    "dobutsu",
    "gorogoro",
    "judkins",
    "torishogi",
    "euroshogi",
    "losalamos",
    "gardner",
    "almost",
    "sortofalmost",
    "chigorin",
    "perfect",
    "spartan",
    "shatar",
    "coregal",
    "clobber",
    "breakthrough",
    "ataxx",
    "flipersi",
    "flipello",
    "minixiangqi",
    "raazuvaa",
    "shogi",
    "checkshogi",
    "shoshogi",
    "yarishogi",
    "okisakishogi",
    "capablanca",
    "capahouse",
    "caparandom",
    "gothic",
    "janus",
    "modern",
    "chancellor",
    "embassy",
    "centaur",
    "gustav3",
    "jesonmor",
    "courier",
    "grand",
    "opulent",
    "tencubed",
    "omicron",
    "troitzky",
    "wolf",
    "shako",
    "clobber10",
    "flipello10",
    "amazons",
    "xiangqi",
    "manchu",
    "supply",
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

/// Whether `name` is one of Fairy-Stockfish's built-in variants.
pub fn is_builtin(name: &str) -> bool {
    BUILTIN_NAMES.contains(&name)
}

/// The rules of the built-in variant `name`, when import restates it.
pub fn rules(name: &str) -> Option<Rules> {
    match name {
        "chess" | "normal" => return Some(Rules::chess()),
        "crazyhouse" => return Rules::crazyhouse(),
        _ => {}
    }
    let sections = ini::parse(BUILTIN_INI).expect("the built-in sections read");
    let section = sections.iter().find(|s| s.name == name)?;
    let mut rules = match section.parent.as_deref() {
        None => Rules::template(),
        Some(parent) => rules(parent)?,
    };
    rules
        .apply(section)
        .unwrap_or_else(|r| panic!("built-in `{name}` line {}: {}", r.line, r.reason));
    Some(rules)
}

/// The names of the built-in variants import restates, for messages.
pub fn restated() -> Vec<String> {
    let mut names = vec!["chess".to_string(), "crazyhouse".to_string()];
    if let Ok(sections) = ini::parse(BUILTIN_INI) {
        names.extend(sections.into_iter().map(|s| s.name));
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_restated_variant_applies_and_is_a_builtin() {
        for name in restated() {
            assert!(is_builtin(&name), "{name}");
            assert!(rules(&name).is_some(), "{name}");
        }
    }
}
