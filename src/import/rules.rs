//! The rules of one Fairy-Stockfish variant as import understands them: its template's rules
//! with each section of its inheritance chain applied in turn, option by option, in the order
//! Fairy-Stockfish's parser applies them (board size, then piece types, then the rest).
//!
//! Only options with an exact equivalent in the language change the rules; any other option,
//! or a value the language cannot state, is a [`Refusal`] naming its line.

use super::betza;
use super::ini::{Section, Setting};
use std::collections::BTreeSet;

/// A square as (file, rank), both from 0.
pub type Square = (u8, u8);

/// Why a section cannot be imported exactly.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub line: usize,
    pub reason: String,
}

/// The two sides, in Fairy-Stockfish's order.
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// A game result for the side concerned, as Fairy-Stockfish's `Value` options give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
}

/// One piece type of the variant.
#[derive(Debug, Clone)]
pub struct Piece {
    /// Fairy-Stockfish's name for its slot: `pawn`, `knight`, `customPiece3`, `king`.
    pub slot: String,
    pub letter: char,
    /// The movement in the language's Betza notation (not used for the pawn, which is built from
    /// the double-step and en-passant options).
    pub moves: String,
    /// The movement in Fairy-Stockfish's Betza notation, as the option gave it.
    pub fsf_betza: String,
}

/// The rules of a variant.
#[derive(Debug, Clone)]
pub struct Rules {
    pub files: u8,
    pub ranks: u8,
    pub pieces: Vec<Piece>,
    pub start_fen: String,
    pub promotion_region: [BTreeSet<Square>; 2],
    /// Promotion choices by letter, per side.
    pub promotion_types: [Vec<char>; 2],
    pub double_step: bool,
    pub double_step_region: [BTreeSet<Square>; 2],
    pub castling: bool,
    pub castling_kingside_file: u8,
    pub castling_queenside_file: u8,
    pub castling_rank: u8,
    pub castling_king_file: u8,
    /// `castlingRookKingsideFile` (Fairy-Stockfish's default, its widest board's last file, is
    /// cut to the board) and `castlingRookQueensideFile`: where the search for a right's rook
    /// starts.
    pub castling_rook_kingside_file: u8,
    pub castling_rook_queenside_file: u8,
    pub piece_drops: bool,
    pub captures_to_hand: bool,
    pub first_rank_pawn_drops: bool,
    pub promotion_zone_pawn_drops: bool,
    pub checkmate: Verdict,
    pub stalemate: Verdict,
    pub n_move_rule: u32,
    pub n_fold_rule: u32,
    pub n_fold_value: Verdict,
    /// The flag piece's letter per side ([`ALL_PIECES`]: any piece, Fairy-Stockfish's default;
    /// `None`: `-`, none), and the flag regions.
    pub flag_piece: [Option<char>; 2],
    /// `flagPieceCount`: how many flag pieces must stand in the region.
    pub flag_piece_count: u32,
    pub flag_region: [BTreeSet<Square>; 2],
    /// `flagPieceSafe`: the flag pieces win only where the opponent does not attack them, and
    /// the win is judged on the side's next turn.
    pub flag_piece_safe: bool,
    /// `mustCapture`: a side that can capture must.
    pub must_capture: bool,
    /// `checkCounting`: the checks each side still needs are in the FEN; the last one wins.
    pub check_counting: bool,
    /// `castlingDroppedPiece`: castling rights are gained by dropping king and rook in place.
    pub castling_dropped_piece: bool,
    /// `castlingKingPiece`: the letter of the piece that castles, per side (`None`: the king).
    pub castling_king_piece: [Option<char>; 2],
    /// `castlingRookPieces`: the letter of the piece that castles as the rook, per side (`None`:
    /// Fairy-Stockfish's `rook` type).
    pub castling_rook_piece: [Option<char>; 2],
    /// `extinctionValue` for the side whose pieces are extinct (`None`: no extinction rule).
    pub extinction_value: Option<Verdict>,
    /// `extinctionPieceTypes`, by letter; `*` (every piece together) as [`ALL_PIECES`].
    pub extinction_piece_types: Vec<char>,
    /// `extinctionPieceCount`: a type is extinct at this count or below.
    pub extinction_piece_count: u32,
    /// `extinctionOpponentPieceCount`: extinction counts only while the opponent has at least
    /// this many of the type.
    pub extinction_opponent_piece_count: u32,
    /// `extinctionPseudoRoyal`: the extinction types may not be left attacked (while a side has
    /// at most `extinctionPieceCount + 1` of them), checkmate included.
    pub extinction_pseudo_royal: bool,
    /// `promotedPieceType`: (piece, the type it promotes to) by letter, shogi's promotion.
    pub promoted_piece_type: Vec<(char, char)>,
    /// `mandatoryPiecePromotion`: a piece with a promoted type must promote on every move that
    /// starts or ends in the promotion region.
    pub mandatory_piece_promotion: bool,
    /// `perpetualCheckIllegal`: a repetition reached by one side checking with every move
    /// loses for that side.
    pub perpetual_check_illegal: bool,
    /// `passOnStalemate` per side: a side without a legal move (and not in check) passes.
    pub pass_on_stalemate: [bool; 2],
    /// `immobilityIllegal`: no move or drop may leave a piece where it could never move again.
    pub immobility_illegal: bool,
    /// `blastOnCapture`: every capture removes the capturer and every piece but pawns on the
    /// eight squares around the capture square (atomic chess).
    pub blast_on_capture: bool,
    /// `checking = false`: no move may give check.
    pub checking: bool,
    /// `flyingGeneral`: the kings may not face each other on a file with nothing between.
    pub flying_general: bool,
    /// `dropNoDoubled`: the piece that may not be dropped on a file holding
    /// `dropNoDoubledCount` of its own kind.
    pub drop_no_doubled: Option<char>,
    pub drop_no_doubled_count: u32,
    /// `soldierPromotionRank` as a rank index from each side's edge: the soldier steps sideways
    /// from that rank on (0: everywhere).
    pub soldier_promotion_rank: u8,
    /// `dropRegionWhite/Black`: where each side may drop (`None`: anywhere).
    pub drop_region: [Option<BTreeSet<Square>>; 2],
    /// `enPassantRegion` per capturing side, where it differs from the whole board.
    pub en_passant_region: [Option<BTreeSet<Square>>; 2],
}

/// `*` in `extinctionPieceTypes`: every piece of a side together.
pub const ALL_PIECES: char = '*';

/// Fairy-Stockfish's predefined piece types that import maps, with their Betza and the letter
/// chess gives them.
const PREDEFINED: [(&str, &str); 20] = [
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
];

/// More predefined types (kept apart to keep each table short).
const PREDEFINED_MORE: [(&str, &str); 15] = [
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("breakthrough", "fmWfF"),
    ("cannon", "mRcpR"),
    ("banner", "RcpRnN"),
    ("clobber", "cW"),
    ("immobile", ""),
    ("soldier", "fsW"),
];

/// Predefined types with no equivalent, and why.
const UNMAPPED_PIECES: [(&str, &str); 1] = [(
    "janggiCannon",
    "a hopper that may neither hop over nor capture another cannon: the language says it (`may not hop over Cannon`, `may not capture Cannon`, games/janggi.variant), import does not write it yet",
)];

/// Options that change nothing of the rules (engine evaluation and GUI hints): accepted, not
/// written.
const COSMETIC: [&str; 6] = [
    "pieceValueMg",
    "pieceValueEg",
    "pieceToCharTable",
    "pocketSize",
    "variantTemplate",
    "nnueAlias",
];

/// Options import accepts only at Fairy-Stockfish's default, which the language states.
const DEFAULT_ONLY: [(&str, &str); 26] = [
    ("flagMove", "false"),
    ("flagPieceBlockedWin", "false"),
    ("chess960", "false"),
    ("twoBoards", "false"),
    ("dropChecks", "true"),
    ("mustDrop", "false"),
    ("dropLoop", "false"),
    ("gating", "false"),
    ("seirawanGating", "false"),
    ("cambodianMoves", "false"),
    ("pass", "false"),
    ("passWhite", "false"),
    ("passBlack", "false"),
    ("shogiPawnDropMateIllegal", "false"),
    ("sittuyinPromotion", "false"),
    ("piecePromotionOnCapture", "false"),
    ("oppositeCastling", "false"),
    ("dropPromoted", "false"),
    ("moveRepetitionIllegal", "false"),
    ("bikjangRule", "false"),
    ("makpongRule", "false"),
    ("shatarMateRule", "false"),
    ("dupleCheck", "false"),
    ("mandatoryPawnPromotion", "true"),
    ("pieceDemotion", "false"),
    ("sittuyinRookDrop", "false"),
];

/// Whether the option `key` changes nothing of the rules (engine evaluation, GUI hints).
pub fn is_cosmetic(key: &str) -> bool {
    COSMETIC.contains(&key)
}

impl Rules {
    /// Fairy-Stockfish's template for a section without a parent: chess's rules, no piece.
    pub fn template() -> Rules {
        // Fairy-Stockfish's defaults are whole ranks of its widest board, cut to the board when
        // the file is written.
        let rank = |r: u8| (0..12).map(|f| (f, r)).collect::<BTreeSet<Square>>();
        Rules {
            files: 8,
            ranks: 8,
            pieces: Vec::new(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            promotion_region: [rank(7), rank(0)],
            promotion_types: [Vec::new(), Vec::new()],
            double_step: true,
            double_step_region: [rank(1), rank(6)],
            castling: true,
            castling_kingside_file: 6,
            castling_queenside_file: 2,
            castling_rank: 0,
            castling_king_file: 4,
            castling_rook_kingside_file: 11,
            castling_rook_queenside_file: 0,
            piece_drops: false,
            captures_to_hand: false,
            first_rank_pawn_drops: false,
            promotion_zone_pawn_drops: false,
            checkmate: Verdict::Loss,
            stalemate: Verdict::Draw,
            n_move_rule: 50,
            n_fold_rule: 3,
            n_fold_value: Verdict::Draw,
            flag_piece: [Some(ALL_PIECES), Some(ALL_PIECES)],
            flag_piece_count: 1,
            flag_region: [BTreeSet::new(), BTreeSet::new()],
            flag_piece_safe: false,
            must_capture: false,
            check_counting: false,
            castling_dropped_piece: false,
            castling_king_piece: [None, None],
            castling_rook_piece: [None, None],
            extinction_value: None,
            extinction_piece_types: Vec::new(),
            extinction_piece_count: 0,
            extinction_opponent_piece_count: 0,
            extinction_pseudo_royal: false,
            blast_on_capture: false,
            promoted_piece_type: Vec::new(),
            mandatory_piece_promotion: false,
            immobility_illegal: false,
            perpetual_check_illegal: false,
            pass_on_stalemate: [false, false],
            en_passant_region: [None, None],
            checking: true,
            flying_general: false,
            drop_no_doubled: None,
            drop_no_doubled_count: 1,
            drop_region: [None, None],
            soldier_promotion_rank: 0,
        }
    }

    /// Fairy-Stockfish's built-in `chess`.
    pub fn chess() -> Rules {
        let mut rules = Rules::template();
        for (slot, letter) in [
            ("pawn", 'p'),
            ("knight", 'n'),
            ("bishop", 'b'),
            ("rook", 'r'),
            ("queen", 'q'),
            ("king", 'k'),
        ] {
            rules
                .add_piece(slot, letter, predefined(slot).unwrap_or("K"), 0)
                .expect("chess pieces convert");
        }
        rules.promotion_types = [vec!['q', 'r', 'b', 'n'], vec!['q', 'r', 'b', 'n']];
        rules
    }

    /// Fairy-Stockfish's built-in `crazyhouse`: chess with drops of captured pieces.
    pub fn crazyhouse() -> Option<Rules> {
        let mut rules = Rules::chess();
        rules.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1".into();
        rules.piece_drops = true;
        rules.captures_to_hand = true;
        Some(rules)
    }

    /// The piece with this letter, if any.
    pub fn piece(&self, letter: char) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.letter == letter)
    }

    /// Adds (or redefines) the piece of a slot, as Fairy-Stockfish's `add_piece` does: a letter
    /// taken by another slot is taken away from it.
    fn add_piece(
        &mut self,
        slot: &str,
        letter: char,
        fsf_betza: &str,
        line: usize,
    ) -> Result<(), Refusal> {
        let moves = if slot == "pawn" {
            String::new()
        } else {
            betza::convert(fsf_betza).map_err(|reason| Refusal {
                line,
                reason: format!("`{slot}`: {reason}"),
            })?
        };
        // As Fairy-Stockfish's `add_piece`: the piece that had the letter (this slot's own, too)
        // is removed, with its promotion choices; rules naming this slot's old letter follow it
        // to the new one (Fairy-Stockfish keeps piece types, not letters, in them).
        if let Some(displaced) = self.pieces.iter().find(|p| p.letter == letter) {
            let displaced = displaced.slot.clone();
            self.remove_piece(&displaced);
        }
        if let Some(old) = self
            .pieces
            .iter()
            .find(|p| p.slot == slot)
            .map(|p| p.letter)
        {
            self.rename_letter(old, letter);
        }
        let piece = Piece {
            slot: slot.to_string(),
            letter,
            moves,
            fsf_betza: fsf_betza.to_string(),
        };
        match self.pieces.iter_mut().find(|p| p.slot == slot) {
            Some(existing) => *existing = piece,
            None => self.pieces.push(piece),
        }
        Ok(())
    }

    /// Every rule that names the letter `old` names `new` instead.
    fn rename_letter(&mut self, old: char, new: char) {
        let rename = |c: &mut char| {
            if *c == old {
                *c = new;
            }
        };
        for types in &mut self.promotion_types {
            types.iter_mut().for_each(rename);
        }
        self.extinction_piece_types.iter_mut().for_each(rename);
        for (from, to) in &mut self.promoted_piece_type {
            rename(from);
            rename(to);
        }
        for piece in self
            .flag_piece
            .iter_mut()
            .chain(&mut self.castling_king_piece)
            .chain(&mut self.castling_rook_piece)
        {
            piece.as_mut().map(rename);
        }
    }

    /// Removes a slot's piece (`king = -`), and takes it out of the promotion choices.
    fn remove_piece(&mut self, slot: &str) {
        if let Some(letter) = self
            .pieces
            .iter()
            .find(|p| p.slot == slot)
            .map(|p| p.letter)
        {
            for types in &mut self.promotion_types {
                types.retain(|&c| c != letter);
            }
            self.promoted_piece_type
                .retain(|&(from, to)| from != letter && to != letter);
        }
        self.pieces.retain(|p| p.slot != slot);
    }

    /// Applies one section's settings, in Fairy-Stockfish's order.
    pub fn apply(&mut self, section: &Section) -> Result<(), Refusal> {
        for key in ["maxRank", "maxFile"] {
            if let Some(setting) = section.settings.iter().rev().find(|s| s.key == key) {
                self.board_size(setting)?;
            }
        }
        for setting in &section.settings {
            if is_piece_slot(&setting.key) {
                self.piece_setting(setting)?;
            }
        }
        for setting in &section.settings {
            if !is_piece_slot(&setting.key) && setting.key != "maxRank" && setting.key != "maxFile"
            {
                self.rule_setting(setting)?;
            }
        }
        Ok(())
    }

    fn board_size(&mut self, setting: &Setting) -> Result<(), Refusal> {
        let limit = if setting.key == "maxRank" { 10 } else { 12 };
        let value = if setting.key == "maxFile" {
            parse_file(&setting.value)
        } else {
            setting
                .value
                .parse::<u8>()
                .ok()
                .filter(|&r| r >= 1)
                .map(|r| r - 1)
        };
        let Some(index) = value.filter(|&v| v < limit) else {
            return Err(refuse(
                setting,
                format!("`{}` is not a size from 1 to {limit}", setting.value),
            ));
        };
        if setting.key == "maxRank" {
            self.ranks = index + 1;
        } else {
            self.files = index + 1;
        }
        Ok(())
    }

    fn piece_setting(&mut self, setting: &Setting) -> Result<(), Refusal> {
        let slot = setting.key.as_str();
        let value = setting.value.as_str();
        let Some(first) = value.chars().next() else {
            return Ok(()); // Fairy-Stockfish ignores an empty value
        };
        if !first.is_ascii_alphabetic() {
            self.remove_piece(slot);
            return Ok(());
        }
        let letter = first.to_ascii_lowercase();
        let fsf_betza = if slot.starts_with("customPiece") {
            match value
                .get(2..)
                .filter(|b| value.as_bytes().get(1) == Some(&b':') && !b.is_empty())
            {
                Some(b) => b.to_string(),
                None => return Err(refuse(setting, format!("`{slot}` needs `letter:BETZA`"))),
            }
        } else if slot == "king" {
            match value.get(2..).filter(|b| !b.is_empty()) {
                Some(b) => b.to_string(),
                None => "K".to_string(),
            }
        } else if let Some((_, why)) = UNMAPPED_PIECES.iter().find(|(name, _)| *name == slot) {
            return Err(refuse(setting, format!("the piece type `{slot}` is {why}")));
        } else {
            predefined(slot).unwrap_or_default().to_string()
        };
        self.add_piece(slot, letter, &fsf_betza, setting.line)
    }

    fn rule_setting(&mut self, setting: &Setting) -> Result<(), Refusal> {
        let (key, value) = (setting.key.as_str(), setting.value.as_str());
        if COSMETIC.contains(&key) {
            return Ok(());
        }
        if let Some((_, default)) = DEFAULT_ONLY.iter().find(|(k, _)| *k == key) {
            let given = parse_bool(value).map(|b| b.to_string());
            return if given.as_deref() == Some(*default) {
                Ok(())
            } else {
                Err(refuse(setting, format!("`{key} = {value}` has no exact equivalent in the language yet (only `{default}`, Fairy-Stockfish's default, is imported)")))
            };
        }
        match key {
            "startFen" => self.start_fen = value.to_string(),
            "promotionRank" => {
                let rank = self.rank_value(setting)?;
                self.promotion_region = [
                    self.region(|_, r| r >= rank),
                    self.region(|_, r| r < self.ranks && self.ranks - 1 - r >= rank),
                ];
            }
            "promotionRegionWhite" => self.promotion_region[WHITE] = self.bitboard(setting)?,
            "promotionRegionBlack" => self.promotion_region[BLACK] = self.bitboard(setting)?,
            "promotionPieceTypes" => {
                let types = self.piece_set(setting)?;
                self.promotion_types = [types.clone(), types];
            }
            "promotionPieceTypesWhite" => self.promotion_types[WHITE] = self.piece_set(setting)?,
            "promotionPieceTypesBlack" => self.promotion_types[BLACK] = self.piece_set(setting)?,
            "doubleStep" => self.double_step = boolean(setting)?,
            "doubleStepRegionWhite" => self.double_step_region[WHITE] = self.bitboard(setting)?,
            "doubleStepRegionBlack" => self.double_step_region[BLACK] = self.bitboard(setting)?,
            "castling" => self.castling = boolean(setting)?,
            "castlingKingsideFile" => self.castling_kingside_file = file_value(setting)?,
            "castlingQueensideFile" => self.castling_queenside_file = file_value(setting)?,
            "castlingKingFile" => self.castling_king_file = file_value(setting)?,
            "castlingRookKingsideFile" => {
                self.castling_rook_kingside_file = file_value(setting)?
            }
            "castlingRookQueensideFile" => {
                self.castling_rook_queenside_file = file_value(setting)?
            }
            "castlingRank" => self.castling_rank = self.rank_value(setting)?,
            "pieceDrops" => self.piece_drops = boolean(setting)?,
            "capturesToHand" => self.captures_to_hand = boolean(setting)?,
            "firstRankPawnDrops" => self.first_rank_pawn_drops = boolean(setting)?,
            "promotionZonePawnDrops" => self.promotion_zone_pawn_drops = boolean(setting)?,
            "checkmateValue" => self.checkmate = verdict(setting)?,
            "stalemateValue" => self.stalemate = verdict(setting)?,
            "nFoldValue" => self.n_fold_value = verdict(setting)?,
            "nMoveRule" => self.n_move_rule = number(setting)?,
            "nFoldRule" => self.n_fold_rule = number(setting)?,
            "flagPiece" => {
                let piece = self.flag_piece_types(setting)?;
                self.flag_piece = [piece, piece];
            }
            "flagPieceWhite" => self.flag_piece[WHITE] = self.flag_piece_types(setting)?,
            "flagPieceBlack" => self.flag_piece[BLACK] = self.flag_piece_types(setting)?,
            "flagPieceCount" => {
                self.flag_piece_count = number(setting)?.max(1);
            }
            "flagRegion" => {
                let region = self.bitboard(setting)?;
                self.flag_region = [region.clone(), region];
            }
            "flagPieceSafe" => self.flag_piece_safe = boolean(setting)?,
            "flagRegionWhite" => self.flag_region[WHITE] = self.bitboard(setting)?,
            "flagRegionBlack" => self.flag_region[BLACK] = self.bitboard(setting)?,
            "mustCapture" => self.must_capture = boolean(setting)?,
            "checking" => self.checking = boolean(setting)?,
            "flyingGeneral" => self.flying_general = boolean(setting)?,
            "dropNoDoubled" => self.drop_no_doubled = self.flag_piece(setting)?,
            "dropNoDoubledCount" => self.drop_no_doubled_count = number(setting)?,
            "soldierPromotionRank" => self.soldier_promotion_rank = self.rank_value(setting)?,
            "dropRegionWhite" | "whiteDropRegion" => {
                self.drop_region[WHITE] = Some(self.bitboard(setting)?)
            }
            "dropRegionBlack" | "blackDropRegion" => {
                self.drop_region[BLACK] = Some(self.bitboard(setting)?)
            }
            "checkCounting" => self.check_counting = boolean(setting)?,
            "castlingDroppedPiece" => self.castling_dropped_piece = boolean(setting)?,
            "castlingKingPiece" => {
                let piece = self.flag_piece(setting)?;
                self.castling_king_piece = [piece, piece];
            }
            "castlingRookPieces" | "castlingRookPiece" => {
                let piece = self.rook_piece(setting)?;
                self.castling_rook_piece = [piece, piece];
            }
            "castlingRookPiecesWhite" => self.castling_rook_piece[WHITE] = self.rook_piece(setting)?,
            "castlingRookPiecesBlack" => self.castling_rook_piece[BLACK] = self.rook_piece(setting)?,
            "castlingKingPieceWhite" => self.castling_king_piece[WHITE] = self.flag_piece(setting)?,
            "castlingKingPieceBlack" => self.castling_king_piece[BLACK] = self.flag_piece(setting)?,
            "extinctionValue" => {
                self.extinction_value = match value {
                    "none" => None,
                    _ => Some(verdict(setting)?),
                }
            }
            "extinctionPieceTypes" => self.extinction_piece_types = self.extinction_types(setting)?,
            "extinctionPieceCount" => self.extinction_piece_count = number(setting)?,
            "extinctionOpponentPieceCount" => {
                self.extinction_opponent_piece_count = number(setting)?
            }
            "extinctionPseudoRoyal" => self.extinction_pseudo_royal = boolean(setting)?,
            "blastOnCapture" => self.blast_on_capture = boolean(setting)?,
            "promotedPieceType" => self.promoted_piece_type = self.promoted_types(setting)?,
            "mandatoryPiecePromotion" => self.mandatory_piece_promotion = boolean(setting)?,
            "immobilityIllegal" => self.immobility_illegal = boolean(setting)?,
            "perpetualCheckIllegal" => self.perpetual_check_illegal = boolean(setting)?,
            "passOnStalemate" => self.pass_on_stalemate = [boolean(setting)?; 2],
            "passOnStalemateWhite" => self.pass_on_stalemate[WHITE] = boolean(setting)?,
            "passOnStalemateBlack" => self.pass_on_stalemate[BLACK] = boolean(setting)?,
            "enPassantRegion" => {
                let region = self.bitboard(setting)?;
                self.en_passant_region = [Some(region.clone()), Some(region)];
            }
            "enPassantRegionWhite" => {
                self.en_passant_region[WHITE] = Some(self.bitboard(setting)?)
            }
            "enPassantRegionBlack" => {
                self.en_passant_region[BLACK] = Some(self.bitboard(setting)?)
            }
            _ => {
                return Err(refuse(setting, format!(
                    "the option `{key}` has no exact equivalent in the language yet, or is not one import knows (docs/fairy-stockfish.md lists them)"
                )))
            }
        }
        Ok(())
    }

    /// The squares of Fairy-Stockfish's widest board (12 x 10) for which `keep(file, rank)`
    /// holds; cut to the board when the file is written, as Fairy-Stockfish masks them.
    fn region(&self, keep: impl Fn(u8, u8) -> bool) -> BTreeSet<Square> {
        let mut set = BTreeSet::new();
        for r in 0..10 {
            for f in 0..12 {
                if keep(f, r) {
                    set.insert((f, r));
                }
            }
        }
        set
    }

    /// A rank number (1 = the first), as an index.
    fn rank_value(&self, setting: &Setting) -> Result<u8, Refusal> {
        setting
            .value
            .parse::<u8>()
            .ok()
            .filter(|&r| r >= 1 && r <= self.ranks)
            .map(|r| r - 1)
            .ok_or_else(|| {
                refuse(
                    setting,
                    format!("`{}` is not a rank of this board", setting.value),
                )
            })
    }

    /// A Fairy-Stockfish `Bitboard` value: squares, `*N` ranks, `F*` files, `-` for none. Squares
    /// off the board are dropped, as they are in Fairy-Stockfish's board mask.
    fn bitboard(&self, setting: &Setting) -> Result<BTreeSet<Square>, Refusal> {
        let mut set = BTreeSet::new();
        for word in setting.value.split_whitespace() {
            if word == "-" {
                break;
            }
            let bad = || {
                refuse(
                    setting,
                    format!("`{word}` is not a square, `*RANK` or `FILE*`"),
                )
            };
            if let Some(rank) = word.strip_prefix('*') {
                let rank: u8 = rank.parse().map_err(|_| bad())?;
                set.extend(self.region(|_, r| r + 1 == rank));
            } else if let Some(file) = word.strip_suffix('*') {
                let file = parse_file(file).ok_or_else(bad)?;
                set.extend(self.region(|f, _| f == file));
            } else {
                let mut chars = word.chars();
                let file = chars
                    .next()
                    .filter(char::is_ascii_alphabetic)
                    .ok_or_else(bad)?;
                let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
                let square = (file.to_ascii_lowercase() as u8 - b'a', rank.wrapping_sub(1));
                if square.0 < 12 && square.1 < 10 {
                    set.insert(square);
                }
            }
        }
        Ok(set)
    }

    /// A `PieceSet`: letters of the variant's pieces.
    fn piece_set(&self, setting: &Setting) -> Result<Vec<char>, Refusal> {
        let mut letters = Vec::new();
        for c in setting.value.chars().filter(|c| !c.is_whitespace()) {
            let c = c.to_ascii_lowercase();
            if c == '-' {
                continue;
            }
            if self.piece(c).is_none() {
                return Err(refuse(
                    setting,
                    format!("`{c}` is not the letter of a piece of this variant"),
                ));
            }
            if !letters.contains(&c) {
                letters.push(c);
            }
        }
        Ok(letters)
    }

    /// `promotedPieceType`: `p:g n:e ...`, each piece letter with the letter of the type it
    /// promotes to.
    fn promoted_types(&self, setting: &Setting) -> Result<Vec<(char, char)>, Refusal> {
        // Fairy-Stockfish adds to the parent's pairs; `x:-` takes one away.
        let mut pairs = self.promoted_piece_type.clone();
        for word in setting.value.split_whitespace() {
            let letters: Vec<char> = word.chars().map(|c| c.to_ascii_lowercase()).collect();
            let [from, ':', to] = letters.as_slice() else {
                return Err(refuse(setting, format!("`{word}` is not `letter:letter`")));
            };
            if *to == '-' {
                pairs.retain(|&(f, _)| f != *from);
                continue;
            }
            for c in [from, to] {
                if self.piece(*c).is_none() {
                    return Err(refuse(
                        setting,
                        format!("`{c}` is not the letter of a piece of this variant"),
                    ));
                }
            }
            pairs.retain(|&(f, _)| f != *from);
            pairs.push((*from, *to));
        }
        Ok(pairs)
    }

    /// `extinctionPieceTypes`: piece letters, or `*` for every piece together.
    fn extinction_types(&self, setting: &Setting) -> Result<Vec<char>, Refusal> {
        let words: String = setting.value.split_whitespace().collect();
        if words.contains(ALL_PIECES) {
            return if words == "*" {
                Ok(vec![ALL_PIECES])
            } else {
                Err(refuse(
                    setting,
                    "`*` with other piece types is not mapped".into(),
                ))
            };
        }
        self.piece_set(setting)
    }

    /// `flagPiece`: one piece letter, `*` for any piece ([`ALL_PIECES`]), `-` for none.
    fn flag_piece_types(&self, setting: &Setting) -> Result<Option<char>, Refusal> {
        match setting.value.trim() {
            "*" => Ok(Some(ALL_PIECES)),
            _ => self.flag_piece(setting),
        }
    }

    /// `castlingRookPieces`: one piece letter (several types that may castle as the rook are
    /// not mapped).
    fn rook_piece(&self, setting: &Setting) -> Result<Option<char>, Refusal> {
        match self.piece_set(setting)?.as_slice() {
            [one] => Ok(Some(*one)),
            _ => Err(refuse(
                setting,
                format!(
                    "`{} = {}`: only one piece type castling as the rook is mapped",
                    setting.key, setting.value
                ),
            )),
        }
    }

    fn flag_piece(&self, setting: &Setting) -> Result<Option<char>, Refusal> {
        match setting.value.as_str() {
            "*" | "-" | "" => Ok(None),
            text => {
                let set = self.piece_set(setting)?;
                match set.as_slice() {
                    [one] => Ok(Some(*one)),
                    _ => Err(refuse(setting, format!("`{text}` is not one piece letter"))),
                }
            }
        }
    }
}

/// Whether `key` names a piece slot (`pawn`, `customPiece7`, `king`, ...).
fn is_piece_slot(key: &str) -> bool {
    key == "king"
        || predefined(key).is_some()
        || UNMAPPED_PIECES.iter().any(|(name, _)| *name == key)
        || key
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<u8>().ok())
            .is_some_and(|n| (1..=25).contains(&n))
}

/// The Betza of a predefined piece type.
fn predefined(slot: &str) -> Option<&'static str> {
    PREDEFINED
        .iter()
        .chain(PREDEFINED_MORE.iter())
        .find(|(name, _)| *name == slot)
        .map(|(_, betza)| *betza)
}

fn refuse(setting: &Setting, reason: String) -> Refusal {
    Refusal {
        line: setting.line,
        reason,
    }
}

fn parse_bool(value: &str) -> Option<bool> {
    match value {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn boolean(setting: &Setting) -> Result<bool, Refusal> {
    parse_bool(&setting.value).ok_or_else(|| {
        refuse(
            setting,
            format!("`{}` is not `true` or `false`", setting.value),
        )
    })
}

fn number(setting: &Setting) -> Result<u32, Refusal> {
    setting
        .value
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= 1_000_000)
        .ok_or_else(|| {
            refuse(
                setting,
                format!("`{}` is not a number from 0 to 1000000", setting.value),
            )
        })
}

fn verdict(setting: &Setting) -> Result<Verdict, Refusal> {
    match setting.value.as_str() {
        "win" => Ok(Verdict::Win),
        "loss" => Ok(Verdict::Loss),
        "draw" => Ok(Verdict::Draw),
        other => Err(refuse(
            setting,
            format!("`{other}` is not `win`, `loss` or `draw`"),
        )),
    }
}

/// A file given as a letter (`g`) or a number from 1 (`7`), as an index.
fn parse_file(text: &str) -> Option<u8> {
    if let Ok(n) = text.parse::<u8>() {
        return n.checked_sub(1);
    }
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_lowercase() => Some(c as u8 - b'a'),
        _ => None,
    }
}

fn file_value(setting: &Setting) -> Result<u8, Refusal> {
    parse_file(&setting.value)
        .filter(|&f| f < 12)
        .ok_or_else(|| refuse(setting, format!("`{}` is not a file", setting.value)))
}
