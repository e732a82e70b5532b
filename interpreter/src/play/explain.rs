//! "Why is this move illegal?" — and, for a legal move, what it does.
//!
//! The move generator only says yes or no. A person who typed a move, or a designer testing a
//! rule, needs the reason in the game's own words: the placement constraint it breaks (quoted
//! from the game file), that the piece does not move that way or is blocked, that it would leave
//! a royal piece attacked and by what, that it is not that side's piece, that the piece is not
//! in hand, that the game is over. Everything here is generic: it reads the compiled tables and
//! the definition, never a game's name. It is not on any hot path, so it favours plain code.

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::tables::{targets, targets_barred, Barred};
use crate::legal::{
    binding_drop_constraints, binding_move_constraints, leaves_a_reply, legal_moves,
};
use crate::moves::{Move, MoveKind};
use crate::outcome::outcome;
use crate::position::{Occupant, Position};
use crate::rules::Rules;
use std::fmt;
use variant_dsl::{DropConstraint, Square};

/// The answer to "what about this move?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Whether the move is legal here.
    pub legal: bool,
    /// The verdict first, then the details, one sentence each.
    pub lines: Vec<String>,
}

impl Explanation {
    fn illegal(line: impl Into<String>) -> Self {
        Explanation {
            legal: false,
            lines: vec![line.into()],
        }
    }

    fn with(mut self, line: impl Into<String>) -> Self {
        self.lines.push(line.into());
        self
    }

    /// The reasons joined into one sentence, for an error message.
    pub fn reason(&self) -> String {
        self.lines.join("; ")
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.lines {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// Explains `text` as a move of the side to move in `position`, reached after the positions
/// whose hashes are in `history`.
pub fn explain<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    text: &str,
) -> Explanation {
    let words = Words { rules, position };
    if let Some(result) = outcome(rules, position, history) {
        return Explanation::illegal(format!("the game is over: {}", result.description()));
    }
    let legal = legal_moves(rules, position);
    if let Some(&mv) = legal.iter().find(|mv| mv.uci(rules) == text) {
        return words.describe_legal(mv, history);
    }
    if text == "pass" {
        let turn = &rules.definition().turn;
        let early = rules.multi_action() && !turn.maximal;
        return Explanation::illegal(match (turn.pass, early) {
            (false, false) => "this game has no passing".to_string(),
            (true, false) => {
                "a side passes only when it has no legal action at the start of its turn"
                    .to_string()
            }
            (pass, true) => format!(
                "a side passes only to end its turn after its first action{}",
                if pass {
                    ", or when it has no legal action at the start of its turn"
                } else {
                    ""
                }
            ),
        });
    }
    if rules.multi_action() && position.phase().is_none() {
        let alone = crate::legal::single_actions(rules, position);
        if alone.iter().any(|mv| mv.uci(rules) == text) {
            return Explanation::illegal(format!(
                "after it the turn could not be completed: its longest has {} actions, and no \
                 action ending the game could follow",
                position.progress().longest
            ))
            .with(
                "a turn must be as long as the longest possible (`maximal` in the `turn` block)",
            );
        }
    }
    if let Some(neutral) = rules.neutral() {
        return words.why_not_with_neutral(neutral, text, &legal);
    }
    match text.split_once('@') {
        Some((letter, square)) => words.why_not_drop(letter, square, &legal),
        None => words.why_not_move(text, &legal),
    }
}

/// Names and sentences about one position.
struct Words<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    position: &'a Position<B>,
}

impl<B: Bitboard> Words<'_, B> {
    /// Why `text` is not legal in a game with a neutral piece (`neutral`): the move itself is
    /// judged among the moves without their placements, then the placement.
    fn why_not_with_neutral(&self, neutral: PieceId, text: &str, legal: &[Move]) -> Explanation {
        let (played, placement) = match text.split_once(',') {
            Some((played, placement)) => (played, Some(placement)),
            None => (text, None),
        };
        let mut alone: Vec<Move> = legal.iter().map(|mv| mv.without_neutral()).collect();
        alone.dedup();
        let Some(example) = legal
            .iter()
            .find(|mv| mv.without_neutral().uci(self.rules) == played)
        else {
            return match played.split_once('@') {
                Some((letter, square)) => self.why_not_drop(letter, square, &alone),
                None => self.why_not_move(played, &alone),
            };
        };
        let name = self.piece(neutral);
        let rule = format!(
            "every move ends by putting the {name} on an empty square other than its own, \
             written after a comma from the move's destination: for example `{}`",
            example.uci(self.rules)
        );
        match placement {
            None => Explanation::illegal(format!("the move does not put the {name}")).with(rule),
            Some(placement) => Explanation::illegal(format!(
                "the {name} cannot be put as `{placement}` after this move"
            ))
            .with(rule),
        }
    }

    fn side(&self, side: SideId) -> &str {
        &self.rules.definition().sides[side.index()].name
    }

    fn piece(&self, piece: PieceId) -> &str {
        &self.rules.definition().pieces[piece.index()].name
    }

    fn square(&self, square: Sq) -> String {
        self.rules.geometry().square(square).to_string()
    }

    /// "black's Rook on e8"
    fn occupant(&self, square: Sq) -> String {
        match self.position.at(square) {
            Some(Occupant { side, piece }) => format!(
                "{}'s {} on {}",
                self.side(side),
                self.piece(piece),
                self.square(square)
            ),
            None => format!("the empty square {}", self.square(square)),
        }
    }

    /// The square written in text, if it is on the board.
    fn board_square(&self, text: &str) -> Option<Sq> {
        let square = Square::parse(text)?;
        let geometry = &self.rules.geometry();
        if usize::from(square.file) >= geometry.files || usize::from(square.rank) >= geometry.ranks
        {
            return None;
        }
        let square = geometry.index(square);
        geometry.on_board(square).then_some(square)
    }

    fn to_move(&self) -> SideId {
        self.position.side_to_move(self.rules)
    }

    // ---------------------------------------------------------------------------------------
    // Legal moves: what they do
    // ---------------------------------------------------------------------------------------

    fn describe_legal(&self, mv: Move, history: &[u64]) -> Explanation {
        let rules = self.rules;
        let us = self.to_move();
        let mut lines = Vec::new();
        let (from, to) = (mv.from, mv.to);
        match mv.kind {
            MoveKind::Pass => {
                lines.push(format!(
                    "legal: {} passes: the turn has no other legal action",
                    self.side(us)
                ));
            }
            MoveKind::Drop(piece) => {
                lines.push(format!(
                    "legal: {} puts a {} from its hand on {}",
                    self.side(us),
                    self.piece(piece),
                    self.square(to)
                ));
                let met: Vec<String> = binding_drop_constraints(rules, self.position, piece, to)
                    .into_iter()
                    .map(|(constraint, _)| format!("  {}", self.constraint(constraint)))
                    .collect();
                if !met.is_empty() {
                    lines.push("it meets the placement rules that apply to it:".to_string());
                    lines.extend(met);
                }
            }
            MoveKind::Castle(index) => {
                let castle = &rules.castles()[index as usize];
                lines.push(format!(
                    "legal: {} castles, the {} from {} to {} and the {} from {} to {}",
                    self.side(us),
                    self.piece_at(castle.king_from),
                    self.square(castle.king_from),
                    self.square(castle.king_to),
                    self.piece_at(castle.rook_from),
                    self.square(castle.rook_from),
                    self.square(castle.rook_to)
                ));
            }
            _ => {
                let mover = self.position.at(from).map_or(PieceId(0), |o| o.piece);
                let definition = &rules.definition().pieces[mover.index()];
                let by = match (mv.converts, definition.betza.is_empty()) {
                    (Some(_), _) | (None, true) => {
                        let paths: Vec<String> = definition
                            .paths
                            .iter()
                            .map(|p| format!("path {}", p.text))
                            .collect();
                        paths.join(" | ")
                    }
                    (None, false) => format!("\"{}\"", definition.betza),
                };
                lines.push(format!(
                    "legal: {}'s {} moves from {} to {}, by its moves {by}",
                    self.side(us),
                    self.piece(mover),
                    self.square(from),
                    self.square(to),
                ));
                if mv.kind == MoveKind::EnPassant {
                    if let Some(ep) = self.position.en_passant() {
                        lines.push(format!(
                            "it captures {} en passant",
                            self.occupant(ep.victim)
                        ));
                    }
                } else if self.position.at(to).is_some() {
                    lines.push(format!("it captures {}", self.occupant(to)));
                }
                if let Some(converted) = mv.converts {
                    lines.push(format!(
                        "it takes over {}, which becomes {}'s",
                        self.occupant(converted),
                        self.side(us)
                    ));
                }
                if let MoveKind::Promote(piece) = mv.kind {
                    lines.push(format!("it promotes to a {}", self.piece(piece)));
                }
            }
        }
        let mut next = *self.position;
        next.play_unchecked(rules, mv);
        if rules.definition().end.check {
            let checked: Vec<&str> = rules
                .side_ids()
                .filter(|&side| rules.is_enemy(us, side) && next.in_check(rules, side))
                .map(|side| self.side(side))
                .collect();
            if !checked.is_empty() {
                lines.push(format!("it gives check to {}", checked.join(" and ")));
            }
        }
        let mut after = history.to_vec();
        after.push(self.position.hash());
        if let Some(result) = outcome(rules, &next, &after) {
            lines.push(format!("it ends the game: {}", result.description()));
        }
        Explanation { legal: true, lines }
    }

    fn piece_at(&self, square: Sq) -> &str {
        self.position
            .at(square)
            .map_or("piece", |occupant| self.piece(occupant.piece))
    }

    // ---------------------------------------------------------------------------------------
    // Drops
    // ---------------------------------------------------------------------------------------

    fn why_not_drop(&self, letter: &str, square: &str, legal: &[Move]) -> Explanation {
        let rules = self.rules;
        let us = self.to_move();
        let mut chars = letter.chars();
        let (Some(first), None) = (chars.next(), chars.next()) else {
            return Explanation::illegal(format!(
                "`{letter}@{square}` is not a drop: write one piece letter, `@` and a square, e.g. `N@c3`"
            ));
        };
        let Some(piece) = rules
            .definition()
            .pieces
            .iter()
            .position(|p| p.letter.eq_ignore_ascii_case(&first))
            .map(PieceId::new)
        else {
            let letters: Vec<String> = rules
                .definition()
                .pieces
                .iter()
                .map(|p| format!("{} ({})", p.letter, p.name))
                .collect();
            return Explanation::illegal(format!(
                "no piece of this game is written `{first}`; its pieces are {}",
                letters.join(", ")
            ));
        };
        let upper = rules.definition().pieces[piece.index()]
            .letter
            .to_ascii_uppercase();
        let hint = |e: Explanation| {
            if first.is_ascii_lowercase() {
                e.with(format!(
                    "hint: drops are written with the piece's upper-case letter whatever the side: `{upper}@{square}`"
                ))
            } else {
                e
            }
        };
        let Some(to) = self.board_square(square) else {
            return Explanation::illegal(format!("`{square}` is not a square of the board"));
        };
        if first.is_ascii_lowercase()
            && legal
                .iter()
                .any(|mv| mv.uci(rules) == format!("{upper}@{square}"))
        {
            return hint(Explanation::illegal(format!(
                "`{letter}@{square}` is written in lower case"
            )));
        }
        if !rules.definition().actions.drops {
            return Explanation::illegal("this game has no drops");
        }
        if self.position.hand(us, piece) == 0 {
            let held: Vec<String> = (0..rules.pieces())
                .filter(|&p| self.position.hand(us, PieceId::new(p)) > 0)
                .map(|p| {
                    format!(
                        "{} {}",
                        self.position.hand(us, PieceId::new(p)),
                        self.piece(PieceId::new(p))
                    )
                })
                .collect();
            let holding = if held.is_empty() {
                "nothing".to_string()
            } else {
                held.join(", ")
            };
            return hint(Explanation::illegal(format!(
                "{} has no {} in hand (it holds {holding})",
                self.side(us),
                self.piece(piece)
            )));
        }
        if self.position.at(to).is_some() {
            return hint(Explanation::illegal(format!(
                "{} is occupied by {}",
                square,
                self.occupant(to)
            )));
        }
        let broken: Vec<&DropConstraint> =
            binding_drop_constraints(rules, self.position, piece, to)
                .into_iter()
                .filter(|&(_, met)| !met)
                .map(|(constraint, _)| constraint)
                .collect();
        if !broken.is_empty() {
            let mut explanation = Explanation::illegal(format!(
                "a {} on {} breaks the placement rules:",
                self.piece(piece),
                square
            ));
            for constraint in broken {
                explanation = explanation.with(format!("  {}", self.constraint(constraint)));
            }
            return hint(explanation);
        }
        let mv = Move::drop(piece, to);
        if let Some(exposed) = self.exposes_royal(mv) {
            return hint(Explanation::illegal(exposed));
        }
        if let Some(rule) = self.binding_lookahead(piece, to) {
            if !leaves_a_reply(rules, self.position, mv) {
                let mut next = *self.position;
                next.play_unchecked(rules, mv);
                return hint(
                    Explanation::illegal(format!(
                        "it would leave {} no legal action, against the rule:",
                        self.side(next.side_to_move(rules))
                    ))
                    .with(format!("  {}", self.constraint(rule))),
                );
            }
        }
        hint(Explanation::illegal(format!(
            "a {} cannot be placed on {} here",
            self.piece(piece),
            square
        )))
    }

    /// The first `must leave an action` rule that binds a drop of `piece` on `to`.
    fn binding_lookahead(&self, piece: PieceId, to: Sq) -> Option<&DropConstraint> {
        let rules = self.rules;
        let us = self.to_move();
        let mut judge = crate::expression::Judge::new(rules, self.position, us);
        rules
            .drop_constraints()
            .iter()
            .zip(&rules.definition().drops.constraints)
            .find(|(rule, _)| {
                rule.lookahead
                    && rule.side.is_none_or(|side| side == us)
                    && judge.drop_mask(&rule.condition, piece).has(to)
            })
            .map(|(_, constraint)| constraint)
    }

    /// A drop constraint in the game's own words: where it is written (`cheversi.variant:36: must
    /// touch occupied when some occupied`).
    fn constraint(&self, constraint: &DropConstraint) -> String {
        if constraint.origin.line > 0 {
            return constraint.origin.to_string();
        }
        let index = self
            .rules
            .definition()
            .drops
            .constraints
            .iter()
            .position(|c| c == constraint)
            .unwrap_or(0);
        format!("drop rule {} of the game", index + 1)
    }

    // ---------------------------------------------------------------------------------------
    // Moves on the board
    // ---------------------------------------------------------------------------------------

    fn why_not_move(&self, text: &str, legal: &[Move]) -> Explanation {
        let Some((from, to, promotion)) = self.split_move(text) else {
            return Explanation::illegal(format!(
                "`{text}` is not a move: write the squares from and to (`e2e4`), a promotion \
                 letter if any (`e7e8q`), or a drop (`N@c3`)"
            ));
        };
        let (Some(from), Some(to)) = (self.board_square(&from), self.board_square(&to)) else {
            let bad = if self.board_square(&from).is_none() {
                from
            } else {
                to
            };
            return Explanation::illegal(format!("`{bad}` is not a square of the board"));
        };
        let us = self.to_move();
        let Some(mover) = self.position.at(from) else {
            return Explanation::illegal(format!("there is no piece on {}", self.square(from)));
        };
        if mover.side != us {
            return Explanation::illegal(format!(
                "the {} on {} is {}'s, and {} is to move",
                self.piece(mover.piece),
                self.square(from),
                self.side(mover.side),
                self.side(us)
            ));
        }
        let unmet: Vec<String> =
            binding_move_constraints(self.rules, self.position, mover.piece, from)
                .into_iter()
                .filter(|(_, met)| !met)
                .map(|(constraint, _)| format!("  {}", self.constraint(constraint)))
                .collect();
        if !unmet.is_empty() {
            let mut explanation = Explanation::illegal(format!(
                "the {} on {} may not move now, against the rule{}:",
                self.piece(mover.piece),
                self.square(from),
                if unmet.len() == 1 { "" } else { "s" }
            ));
            for line in unmet {
                explanation = explanation.with(line);
            }
            return explanation;
        }
        if let Some(obliged) = self.why_obliged(from, to, legal) {
            return obliged;
        }
        let same_squares: Vec<&Move> = legal
            .iter()
            .filter(|mv| mv.from == from && mv.to == to)
            .collect();
        if !same_squares.is_empty() {
            let without_mark = text.split('^').next().unwrap_or_default();
            let marks: Vec<&str> = text.split('^').skip(1).collect();
            let same_base: Vec<&Move> = same_squares
                .iter()
                .copied()
                .filter(|mv| mv.uci(self.rules).split('^').next() == Some(without_mark))
                .collect();
            if !same_base.is_empty() {
                return self.wrong_conversion_mark(&same_base, &marks);
            }
            return self.wrong_promotion(&same_squares, promotion.as_deref());
        }
        if let Some(castling) = self.why_not_castle(from, to) {
            return castling;
        }
        if let Some(compound) = self.why_not_route(mover, from, text) {
            return compound;
        }
        self.why_not_reach(mover, from, to)
    }

    /// A move from `from` to `to` that the obligations (`must capture`) rule out: the rules
    /// that bind, quoted, and a move they allow.
    fn why_obliged(&self, from: Sq, to: Sq, legal: &[Move]) -> Option<Explanation> {
        let obligations = &self.rules.definition().move_rules.obligations;
        if obligations.is_empty() {
            return None;
        }
        let before = crate::legal::unobliged_actions(self.rules, self.position);
        let ruled_out = before
            .iter()
            .any(|mv| mv.from == from && mv.to == to && !legal.contains(mv));
        if !ruled_out {
            return None;
        }
        let binding = crate::legal::obliged_kinds(self.rules, self.position, &before);
        let (_, kind) = binding.first()?;
        let mut explanation = Explanation::illegal(format!(
            "{} must {} now, against the rule{}:",
            self.side(self.to_move()),
            kind.word(),
            if binding.len() == 1 { "" } else { "s" }
        ));
        for (index, _) in &binding {
            explanation = explanation.with(format!("  {}", obligations[*index].origin));
        }
        if let Some(example) = legal.first() {
            explanation = explanation.with(format!("for example {}", example.uci(self.rules)));
        }
        Some(explanation)
    }

    /// Splits `e2e4q` into ("e2", "e4", Some("q")); a takeover mark (`^d3`) is dropped.
    fn split_move(&self, text: &str) -> Option<(String, String, Option<String>)> {
        let text = text.split('^').next().unwrap_or_default();
        let bytes = text.as_bytes();
        let second = bytes.iter().skip(1).position(|b| b.is_ascii_lowercase())? + 1;
        let (from, rest) = text.split_at(second);
        let digits = rest
            .get(1..)?
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| i + 1);
        let (to, promotion) = rest.split_at(digits);
        Square::parse(from)?;
        Square::parse(to)?;
        let promotion = (!promotion.is_empty()).then(|| promotion.to_string());
        Some((from.to_string(), to.to_string(), promotion))
    }

    /// The squares and promotion are right but the takeover marks (`^d5`) are not.
    fn wrong_conversion_mark(&self, moves: &[&Move], marks: &[&str]) -> Explanation {
        let spelled: Vec<String> = moves
            .iter()
            .map(|mv| format!("`{}`", mv.uci(self.rules)))
            .collect();
        let first = match marks.first() {
            Some(square) => match self.board_square(square) {
                Some(square) if self.position.at(square).is_some() => {
                    format!("this move cannot take over {}", self.occupant(square))
                }
                Some(_) => format!("there is no piece to take over on {square}"),
                None => format!("`{square}` is not a square of the board"),
            },
            None => "this move takes a piece over: mark it with `^` and its square".to_string(),
        };
        Explanation::illegal(first).with(format!("write {}", spelled.join(" or ")))
    }

    /// The squares are right but the promotion part is not.
    fn wrong_promotion(&self, moves: &[&Move], written: Option<&str>) -> Explanation {
        let rules = self.rules;
        let spelled: Vec<String> = moves
            .iter()
            .map(|mv| format!("`{}`", mv.uci(rules)))
            .collect();
        let Some(first) = moves.first() else {
            return Explanation::illegal("no such move");
        };
        let mover = self.piece_at(first.from);
        let square = self.square(first.to);
        let promotes = moves
            .iter()
            .any(|mv| matches!(mv.kind, MoveKind::Promote(_)));
        match (promotes, written) {
            (true, None) => Explanation::illegal(format!(
                "the {mover} must promote on {square}: add the letter of the piece it becomes"
            ))
            .with(format!("write one of {}", spelled.join(", "))),
            (true, Some(letter)) => Explanation::illegal(format!(
                "the {mover} cannot promote to `{letter}` on {square}"
            ))
            .with(format!("write one of {}", spelled.join(", "))),
            (false, _) => Explanation::illegal(format!("the {mover} does not promote on {square}"))
                .with(format!("write {}", spelled.join(", "))),
        }
    }

    /// A king move that matches a castling move of the side to move: which condition fails.
    fn why_not_castle(&self, from: Sq, to: Sq) -> Option<Explanation> {
        let rules = self.rules;
        let us = self.to_move();
        let (index, castle) = rules
            .castles()
            .iter()
            .enumerate()
            .find(|(_, c)| c.side == us && c.king_from == from && c.king_to == to)?;
        let name = format!("castling {}{}", self.square(from), self.square(to));
        let occupied = self.position.occupied();
        let reason = if self.position.castling_rights() >> index & 1 == 0 {
            "the right to it is lost (its king or rook has moved or been captured)".to_string()
        } else if let Some(blocker) = (castle.empty & occupied).squares().next() {
            format!("{} stands in the way", self.occupant(blocker))
        } else if rules.definition().end.check && self.position.in_check(rules, us) {
            format!("{} is in check", self.side(us))
        } else if let Some(attacked) = castle
            .king_path
            .iter()
            .copied()
            .find(|&square| self.position.attacked(rules, square, us, occupied))
        {
            let by = self.position.attackers(rules, attacked, us, occupied);
            let by = by
                .squares()
                .next()
                .map(|sq| format!(" by {}", self.occupant(sq)))
                .unwrap_or_default();
            format!(
                "the king would pass or land on {}, which is attacked{by}",
                self.square(attacked)
            )
        } else {
            "its conditions are not met".to_string()
        };
        Some(Explanation::illegal(format!(
            "{name} is not allowed: {reason}"
        )))
    }

    /// A compound move (a path with a takeover) that the piece could make but that exposes its
    /// own royal piece.
    fn why_not_route(&self, mover: Occupant, from: Sq, text: &str) -> Option<Explanation> {
        let rules = self.rules;
        let mut found = None;
        crate::core::route::walk(
            rules,
            self.position,
            mover.side,
            from,
            rules.moves_of(mover.side, mover.piece),
            &mut |mv| {
                if mv.uci(rules) == text {
                    found = Some(mv);
                }
            },
        );
        let exposed = self.exposes_royal(found?)?;
        Some(Explanation::illegal(exposed))
    }

    /// The piece does not get to `to`: its movement, a blocker, or its own royal piece's safety.
    fn why_not_reach(&self, mover: Occupant, from: Sq, to: Sq) -> Explanation {
        let rules = self.rules;
        let us = mover.side;
        let moves = rules.moves_of(us, mover.piece);
        let own = self.position.side_pieces(us);
        let occupied = self.position.occupied();
        let enemy = occupied & !own;
        let name = self.piece(mover.piece);
        let (sq_from, sq_to) = (self.square(from), self.square(to));
        // `may not hop over` and `may not capture` (a janggi cannon) are part of the movement.
        let barred = Barred::of(moves, |piece| self.position.typed(piece));
        let pseudo = targets_barred(rules, moves, from, own, enemy, occupied, barred);
        let en_passant = self
            .position
            .en_passant()
            .is_some_and(|ep| ep.target == to && moves.en_passant[from].has(to));
        if pseudo.has(to) || en_passant {
            let kind = if en_passant {
                MoveKind::EnPassant
            } else {
                MoveKind::Normal
            };
            let mv = Move {
                kind,
                ..Move::normal(from, to)
            };
            if let Some(exposed) = self.exposes_royal(mv) {
                return Explanation::illegal(exposed);
            }
            return Explanation::illegal(format!(
                "the {name} on {sq_from} cannot go to {sq_to} here"
            ));
        }
        if own.has(to) {
            return Explanation::illegal(format!(
                "{sq_to} is occupied by {}'s own {}",
                self.side(us),
                self.piece_at(to)
            ));
        }
        if targets(rules, moves, from, own, enemy, occupied).has(to) {
            return Explanation::illegal(self.why_barred(mover, from, to, barred));
        }
        let betza = &rules.definition().pieces[mover.piece.index()].betza;
        let alone = B::single(from);
        let to_empty = targets(rules, moves, from, B::EMPTY, B::EMPTY, alone);
        let to_capture = targets(
            rules,
            moves,
            from,
            B::EMPTY,
            B::single(to),
            alone | B::single(to),
        );
        if !to_empty.has(to) && !to_capture.has(to) {
            return Explanation::illegal(format!(
                "a {name} does not move from {sq_from} to {sq_to} (its moves: \"{betza}\")"
            ));
        }
        if enemy.has(to) && !to_capture.has(to) {
            return Explanation::illegal(format!(
                "a {name} cannot capture on {sq_to}: it moves there only when the square is empty \
                 (its moves: \"{betza}\")"
            ));
        }
        if !enemy.has(to) && !to_empty.has(to) {
            return Explanation::illegal(format!(
                "a {name} goes to {sq_to} only to capture, and {sq_to} is empty (its moves: \
                 \"{betza}\")"
            ));
        }
        // The pattern reaches `to`: something stands in the way.
        for blocker in (occupied & !alone & !B::single(to)).squares() {
            let without = occupied & !B::single(blocker);
            let reach = targets(rules, moves, from, own & without, enemy & without, without);
            if reach.has(to) {
                return Explanation::illegal(format!(
                    "the way from {sq_from} to {sq_to} is blocked by {}",
                    self.occupant(blocker)
                ));
            }
        }
        Explanation::illegal(format!(
            "the {name} on {sq_from} cannot go to {sq_to} from here (its moves: \"{betza}\")"
        ))
    }

    /// Why a move that the piece's pattern makes is barred by `may not capture` (the piece on
    /// `to`) or `may not hop over` (the hurdle whose leave would let it land).
    fn why_barred(&self, mover: Occupant, from: Sq, to: Sq, barred: Barred<B>) -> String {
        let rules = self.rules;
        let name = self.piece(mover.piece);
        let sq_to = self.square(to);
        if barred.prey.has(to) {
            return format!(
                "a {name} may not capture a {} (on {sq_to})",
                self.piece_at(to)
            );
        }
        let moves = rules.moves_of(mover.side, mover.piece);
        let own = self.position.side_pieces(mover.side);
        let occupied = self.position.occupied();
        let hurdle = barred.hurdles.squares().find(|&hurdle| {
            let allowed = Barred {
                hurdles: barred.hurdles & !B::single(hurdle),
                prey: barred.prey,
            };
            targets_barred(rules, moves, from, own, occupied & !own, occupied, allowed).has(to)
        });
        match hurdle {
            Some(hurdle) => format!(
                "a {name} may not hop over a {} (on {}) to {sq_to}",
                self.piece_at(hurdle),
                self.square(hurdle)
            ),
            None => format!(
                "the {name} on {} cannot go to {sq_to}: its way there hops over more than one \
                 piece it may not hop over",
                self.square(from)
            ),
        }
    }

    /// If `mv` would leave a royal piece of the mover attacked: which, and by what.
    fn exposes_royal(&self, mv: Move) -> Option<String> {
        let rules = self.rules;
        if !rules.definition().end.check {
            return None;
        }
        let us = self.to_move();
        let mut next = *self.position;
        next.play_unchecked(rules, mv);
        let was_in_check = self.position.in_check(rules, us);
        if next.royals(rules, us).count() < self.position.royals(rules, us).count() {
            return Some(format!(
                "it would destroy {}'s own royal piece (the game's capture effects)",
                self.side(us)
            ));
        }
        for royal in next.royals(rules, us).squares() {
            if let Some(attacker) = next.checkers(rules, royal, us).squares().next() {
                let royal_name = next
                    .at(royal)
                    .map_or("royal piece", |o| self.piece(o.piece));
                let by = next.at(attacker).map_or_else(String::new, |o| {
                    format!(
                        "{}'s {} on {}",
                        self.side(o.side),
                        self.piece(o.piece),
                        self.square(attacker)
                    )
                });
                let prefix = if was_in_check {
                    format!("{} is in check, and after this move ", self.side(us))
                } else {
                    "it would leave ".to_string()
                };
                return Some(if was_in_check {
                    format!(
                        "{prefix}its {royal_name} on {} would still be attacked by {by}",
                        self.square(royal)
                    )
                } else {
                    format!(
                        "{prefix}{}'s {royal_name} on {} attacked by {by}",
                        self.side(us),
                        self.square(royal)
                    )
                });
            }
        }
        None
    }
}
