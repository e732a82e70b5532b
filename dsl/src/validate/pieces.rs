//! Pieces and paths: piece names and letters, each `piece` statement (moves as Betza atoms,
//! paths of legs, promotions, zones), and the resolution of a piece's name elsewhere.

use crate::ast::*;
use crate::betza;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::{Span, Spanned};
use crate::suggestion;
use crate::validate::names::{Context, PieceName};
use crate::validate::validator::{duplicate, not_supported, Validator};
use std::collections::HashMap;

impl Validator<'_> {
    /// Names and letters of all pieces; a piece's letter defaults to the first letter of its
    /// name. Duplicated pieces are reported and left out.
    pub(super) fn piece_names<'a>(
        &mut self,
        statements: &[&'a PieceStatement],
    ) -> Vec<PieceName<'a>> {
        let mut pieces: Vec<PieceName<'a>> = Vec::new();
        for statement in statements {
            let name = &statement.name;
            if let Some(first) = pieces
                .iter()
                .find(|piece| piece.statement.name.node == name.node)
            {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_PIECE_NAME,
                        format!("the piece `{}` is declared twice", name.node),
                        name.span,
                        "declared again here",
                    )
                    .with_secondary(first.statement.name.span, "first declared here"),
                );
                continue;
            }
            let (letter, letter_span, promoted_form) = piece_letter(statement);
            if let Some(first) = pieces
                .iter()
                .find(|piece| piece.letter == letter && piece.promoted_form == promoted_form)
            {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_PIECE_LETTER,
                        format!(
                            "the pieces `{}` and `{}` have the same letter `{letter}`",
                            first.statement.name.node, name.node
                        ),
                        letter_span,
                        "same letter",
                    )
                    .with_secondary(
                        piece_letter(first.statement).1,
                        format!("`{}` uses it here", first.statement.name.node),
                    )
                    .with_help("every piece needs its own letter for FEN"),
                );
                self.left_out_pieces.insert(name.node.clone());
                continue;
            }
            pieces.push(PieceName {
                statement,
                letter,
                promoted_form,
            });
        }
        self.report_promoted_forms_without_base(&pieces);
        pieces
    }

    /// A promoted form (`letter +P`) needs a piece lettered `P` that it is the promoted form of.
    fn report_promoted_forms_without_base(&mut self, pieces: &[PieceName<'_>]) {
        for piece in pieces.iter().filter(|piece| piece.promoted_form) {
            let has_base = pieces
                .iter()
                .any(|base| !base.promoted_form && base.letter == piece.letter);
            if !has_base {
                let (letter, span, _) = piece_letter(piece.statement);
                self.error(
                    Diagnostic::error(
                        code::PROMOTED_FORM,
                        format!(
                            "`+{letter}` is the promoted form of a piece lettered `{letter}`, \
                             but no piece has that letter"
                        ),
                        span,
                        "no piece to be the promoted form of",
                    )
                    .with_help(format!(
                        "declare the piece it promotes from with `letter {letter}`"
                    )),
                );
            }
        }
    }

    /// `remove piece` statements still here removed nothing: merging applies the others.
    pub(super) fn report_removals(
        &mut self,
        removals: &[&RemoveStatement],
        pieces: &[PieceName<'_>],
    ) {
        for removal in removals {
            let names = pieces
                .iter()
                .filter(|piece| piece.statement.name.span.file != removal.keyword.file)
                .map(|piece| piece.statement.name.node.as_str());
            let help = suggestion::did_you_mean(&removal.piece.node, names).unwrap_or_else(|| {
                "`remove piece` takes out a piece declared by the game named by `extends`"
                    .to_string()
            });
            self.error(
                Diagnostic::error(
                    code::UNKNOWN_PIECE,
                    format!(
                        "there is no inherited piece `{}` to remove",
                        removal.piece.node
                    ),
                    removal.piece.span,
                    "not a piece of the parent game",
                )
                .with_help(help),
            );
        }
    }

    pub(super) fn piece(&mut self, name: &PieceName<'_>, context: &Context<'_>) -> PieceDef {
        let statement = name.statement;
        let mut piece = PieceDef {
            name: statement.name.node.clone(),
            letter: name.letter,
            promoted_form: name.promoted_form,
            value: 0,
            royal: false,
            betza: String::new(),
            moves: Vec::new(),
            promotion: None,
            initial_zone: Vec::new(),
            irreversible: false,
            uncapturable: false,
            supply: false,
            neutral: false,
            converts_around: false,
            paths: Vec::new(),
            confined: None,
            zoned_moves: Vec::new(),
            lined_moves: Vec::new(),
            no_hurdle: Vec::new(),
            no_capture: Vec::new(),
            in_place: None,
            en_passant_zone: None,
            chase: Default::default(),
        };
        let mut seen: HashMap<String, Span> = HashMap::new();
        // Sides whose promotion zone a `SIDE promotes` statement set: the general statement
        // does not override them.
        let mut side_zones: Vec<usize> = Vec::new();
        for item in &statement.items {
            if let PieceItem::Future(future) = &item.node {
                self.error(not_supported(future));
                continue;
            }
            let keyword = match &item.node {
                PieceItem::Promotes {
                    side: Some(side), ..
                } => format!("{} promotes", side.node),
                PieceItem::MovesIn { .. } => "moves in".to_string(),
                PieceItem::MovesAlong { .. } => "moves along".to_string(),
                other => other.keyword_text().to_string(),
            };
            let repeatable = matches!(
                item.node,
                PieceItem::Path(_) | PieceItem::MovesIn { .. } | PieceItem::MovesAlong { .. }
            );
            if let Some(first) = seen
                .insert(keyword.clone(), item.span)
                .filter(|_| !repeatable)
            {
                self.error(duplicate(&keyword, item.span, first));
                continue;
            }
            match &item.node {
                PieceItem::Letter(_) | PieceItem::PromotedLetter(_) | PieceItem::Future(_) => {}
                PieceItem::Value(value) => {
                    piece.value = self
                        .number(value, i32::MIN as i64, i32::MAX as i64)
                        .unwrap_or(0) as i32
                }
                PieceItem::Royal => piece.royal = true,
                PieceItem::Irreversible => piece.irreversible = true,
                PieceItem::Uncapturable => piece.uncapturable = true,
                PieceItem::Supply => piece.supply = true,
                PieceItem::Neutral => piece.neutral = true,
                PieceItem::ConvertsAround => piece.converts_around = true,
                PieceItem::ChaseStrength(strength) => {
                    piece.chase.strength = self.number(strength, 0, 1000).map(|n| n as u32)
                }
                PieceItem::NeverChases => piece.chase.never_chases = true,
                PieceItem::ChasedIn(zone) => piece.chase.chased_in = self.zone(zone, context),
                PieceItem::Moves(text) => {
                    piece.betza = text.node.value.clone();
                    piece.moves = self.moves(text);
                }
                PieceItem::MovesIn { moves, zone } => {
                    let decoded = self.moves(moves);
                    if let Some(zone) = self.zone(zone, context) {
                        piece.zoned_moves.push(ZonedMoves {
                            zone,
                            betza: moves.node.value.clone(),
                            moves: decoded,
                        });
                    }
                }
                PieceItem::MovesAlong { moves, zone } => {
                    let decoded = self.moves(moves);
                    if let Some(zone) = self.zone(zone, context) {
                        piece.lined_moves.push(ZonedMoves {
                            zone,
                            betza: moves.node.value.clone(),
                            moves: decoded,
                        });
                    }
                }
                PieceItem::MayNot { hop, pieces } => {
                    let context_words = if *hop {
                        "`may not hop over`"
                    } else {
                        "`may not capture`"
                    };
                    let ids: Vec<PieceId> = pieces
                        .iter()
                        .filter_map(|name| self.piece_id(name, context.pieces, context_words))
                        .collect();
                    if *hop {
                        piece.no_hurdle = ids;
                    } else {
                        piece.no_capture = ids;
                    }
                }
                PieceItem::Confined(zone) => piece.confined = self.zone(zone, context),
                PieceItem::EnPassantOn(zone) => piece.en_passant_zone = self.zone(zone, context),
                PieceItem::Path(legs) => {
                    if let Some(path) = self.path(legs) {
                        piece.paths.push(path);
                    }
                }
                PieceItem::Initial(zone) => {
                    piece.initial_zone = self.zone(zone, context).unwrap_or_default()
                }
                PieceItem::Promotes {
                    side: None,
                    optionally,
                    moves,
                    zone,
                    choices,
                } => {
                    let mut zone = self.zone(zone, context).unwrap_or_default();
                    let choices = choices
                        .iter()
                        .filter_map(|choice| self.piece_id(choice, context.pieces, "`promotes`"))
                        .collect();
                    let earlier = piece.promotion.take();
                    if let Some(earlier) = &earlier {
                        for &index in &side_zones {
                            if let (Some(kept), Some(slot)) =
                                (earlier.zone.get(index), zone.get_mut(index))
                            {
                                *slot = kept.clone();
                            }
                        }
                    }
                    let side_choices = earlier.map(|p| p.side_choices).unwrap_or_default();
                    piece.promotion = Some(Promotion {
                        zone,
                        choices,
                        side_choices,
                        optional: *optionally,
                        moves: *moves,
                    });
                }
                PieceItem::PromotesInPlace {
                    step,
                    choices,
                    rules,
                } => piece.in_place = Some(self.in_place(step.as_ref(), choices, rules, context)),
                PieceItem::Promotes {
                    side: Some(side),
                    optionally,
                    moves,
                    zone,
                    choices,
                } => {
                    let Some(side) = self.side_id(side, context.sides, "`promotes`") else {
                        continue;
                    };
                    let zone = self.zone(zone, context).unwrap_or_default();
                    let choices: Vec<PieceId> = choices
                        .iter()
                        .filter_map(|choice| self.piece_id(choice, context.pieces, "`promotes`"))
                        .collect();
                    let promotion = piece.promotion.get_or_insert_with(|| Promotion {
                        zone: vec![Vec::new(); context.sides.len()],
                        choices: Vec::new(),
                        side_choices: Vec::new(),
                        optional: *optionally,
                        moves: *moves,
                    });
                    let index = side.0 as usize;
                    promotion
                        .side_choices
                        .resize(context.sides.len(), Vec::new());
                    promotion.side_choices[index] = choices;
                    promotion.zone.resize(context.sides.len(), Vec::new());
                    promotion.zone[index] = zone.get(index).cloned().unwrap_or_default();
                    side_zones.push(index);
                }
            }
        }
        self.check_region_moves(statement, &piece);
        self.check_hurdles(statement, &piece);
        self.check_en_passant_zone(statement, &piece);
        piece
    }

    /// `promotes in place [or by "BETZA"] to NAME... { RULES }`: the step decoded, the choices
    /// resolved, the block's rules checked as a `moves` block's (obligations refused: they bind
    /// the turn's action as a whole, not one kind of move).
    fn in_place(
        &mut self,
        step: Option<&Spanned<StringLit>>,
        choices: &[Spanned<String>],
        rules: &[Spanned<DropsItem>],
        context: &Context<'_>,
    ) -> InPlacePromotion {
        let choices = choices
            .iter()
            .filter_map(|choice| self.piece_id(choice, context.pieces, "`promotes in place`"))
            .collect();
        let mut kept = Vec::with_capacity(rules.len());
        for rule in rules {
            if let DropsItem::Obligation(_) = rule.node {
                self.error(
                    Diagnostic::error(
                        code::EXPRESSION_PLACE,
                        "an obligation cannot bind a promotion in place",
                        rule.span,
                        "an obligation on the turn's action as a whole",
                    )
                    .with_help("write it in the game's `moves { ... }` block"),
                );
            } else {
                kept.push(rule.clone());
            }
        }
        let rules = self.drop_rules(&kept, context, crate::validate::turns::RuleKind::Move);
        InPlacePromotion {
            betza: step.map(|s| s.node.value.clone()).unwrap_or_default(),
            step: step.map(|s| self.moves(s)).unwrap_or_default(),
            choices,
            rules,
        }
    }

    /// `en-passant on ZONE` says where a piece's en-passant targets may be: the piece needs a
    /// move that leaves one (a term both `i` and `n`, not capture-only, that passes a square,
    /// such as the pawn's `imfnD`), else the statement would mean nothing.
    fn check_en_passant_zone(&mut self, statement: &PieceStatement, piece: &PieceDef) {
        let Some(item) = statement
            .items
            .iter()
            .find(|item| matches!(item.node, PieceItem::EnPassantOn(_)))
        else {
            return;
        };
        let leaves_target = piece.moves.iter().any(|atom| {
            atom.initial_only
                && atom.lame
                && atom.mode != MoveMode::CaptureOnly
                && atom.range == Some(1)
                && atom
                    .steps
                    .iter()
                    .any(|step| step.right.abs().max(step.forward.abs()) > 1)
        });
        if leaves_target {
            return;
        }
        self.error(
            Diagnostic::error(
                code::EN_PASSANT_ZONE,
                format!(
                    "the piece `{}` has no move that leaves an en-passant target",
                    statement.name.node
                ),
                item.span,
                "`en-passant on` needs such a move",
            )
            .with_help(
                "an en-passant target is left by an initial lame move that passes a square, \
                 such as the pawn's double step `imfnD`",
            ),
        );
    }

    /// `may not hop over` speaks of hurdles: the piece must have a hop (`p`, `g`) somewhere in
    /// its moves, else the statement says nothing (a mistake, such as `p` left out of `pR`).
    fn check_hurdles(&mut self, statement: &PieceStatement, piece: &PieceDef) {
        let Some(item) = statement
            .items
            .iter()
            .find(|item| matches!(item.node, PieceItem::MayNot { hop: true, .. }))
        else {
            return;
        };
        let hops = piece
            .moves
            .iter()
            .chain(piece.zoned_moves.iter().flat_map(|zoned| &zoned.moves))
            .chain(piece.lined_moves.iter().flat_map(|lined| &lined.moves))
            .any(|atom| !atom.hop.is_none());
        if hops {
            return;
        }
        self.error(
            Diagnostic::error(
                code::HURDLE_WITHOUT_HOP,
                format!(
                    "the piece `{}` may not hop over pieces, but it never hops",
                    statement.name.node
                ),
                item.span,
                "no move of this piece jumps a hurdle",
            )
            .with_help(
                "hurdles belong to hoppers: a cannon `pR` or a grasshopper `gQ` (Betza `p`, `g`)",
            ),
        );
    }

    /// A piece confined to a zone, or moving differently in one, has those zones compiled into
    /// its leap tables: every movement of it must be a leap (lame or not), not a ride, a hop or a
    /// path, which this version cannot restrict by zone.
    fn check_region_moves(&mut self, statement: &PieceStatement, piece: &PieceDef) {
        let Some(region) = statement.items.iter().find(|item| {
            matches!(
                item.node,
                PieceItem::Confined(_) | PieceItem::MovesIn { .. }
            )
        }) else {
            return;
        };
        let leaps_only = piece
            .moves
            .iter()
            .chain(piece.zoned_moves.iter().flat_map(|zoned| &zoned.moves))
            .all(|atom| atom.range == Some(1) && atom.hop.is_none());
        if leaps_only && piece.paths.is_empty() {
            return;
        }
        self.error(
            Diagnostic::error(
                code::REGION_MOVES,
                format!(
                    "the piece `{}` has a zone of movement but does not only leap",
                    statement.name.node
                ),
                region.span,
                "zones restrict leaps only",
            )
            .with_help(
                "`confined to` and `moves ... in` apply to leaps such as `W`, `F`, `nN` or `nA`; \
                 riders, hoppers and paths in zones are not supported yet",
            ),
        );
    }

    /// A `path` statement: each leg checked, `None` after an error.
    pub(super) fn path(&mut self, legs: &[Spanned<LegSyntax>]) -> Option<PathDef> {
        let mut result = Vec::new();
        let mut unit_steps = true;
        let mut failed = false;
        for (index, leg) in legs.iter().enumerate() {
            let last = index + 1 == legs.len();
            match self.leg(&leg.node, leg.span, index == 0, last, unit_steps) {
                Some((leg, unit)) => {
                    unit_steps = unit;
                    result.push(leg);
                }
                None => failed = true,
            }
        }
        let text: Vec<String> = legs.iter().map(|leg| leg_text(&leg.node)).collect();
        (!failed).then(|| PathDef {
            text: text.join(", then "),
            legs: result,
        })
    }

    /// One leg; with it, whether its steps are one square (so that `outward` may follow).
    fn leg(
        &mut self,
        leg: &LegSyntax,
        span: Span,
        first: bool,
        last: bool,
        previous_unit: bool,
    ) -> Option<(Leg, bool)> {
        let path_error = |message: String, label: &str, help: &str| {
            Diagnostic::error(code::PATH, message, span, label).with_help(help)
        };
        let word = leg.direction.node.as_str();
        let (direction, unit) = match (word, first) {
            ("straight" | "outward", true) => {
                self.error(path_error(
                    format!("a path cannot start `{word}`"),
                    "the first leg has nothing to go on from",
                    "start with a Betza leaper atom such as `W`, `F` or `fF`",
                ));
                return None;
            }
            ("straight", false) => (LegDirection::Straight, previous_unit),
            ("outward", false) if !previous_unit => {
                self.error(path_error(
                    "`outward` follows a one-square step only".to_string(),
                    "the previous leg's step is longer than one square",
                    "use `W`, `F` or `K` steps before `outward`",
                ));
                return None;
            }
            ("outward", false) => (LegDirection::Outward, true),
            (_, false) => {
                self.error(path_error(
                    format!("a later leg goes `straight` or `outward`, not `{word}`"),
                    "a new direction",
                    "only the first leg names its directions with a Betza atom",
                ));
                return None;
            }
            (atom, true) => {
                let steps = self.leg_steps(atom, leg.direction.span)?;
                let unit = steps
                    .iter()
                    .all(|s| s.right.abs() <= 1 && s.forward.abs() <= 1);
                (LegDirection::Steps(steps), unit)
            }
        };
        let count = match leg.count {
            Some('*') => LegCount::AnyEmpty,
            Some('+') => LegCount::SomeEmpty,
            _ => LegCount::One,
        };
        let has_test = !leg.holds.is_empty() || leg.not_royal || leg.undefended;
        if count != LegCount::One && (has_test || leg.convert) {
            self.error(path_error(
                "a sliding leg passes empty squares only".to_string(),
                "this leg slides (`*` or `+`)",
                "put what a square may hold on a one-step leg",
            ));
            return None;
        }
        let mut holds = SquareTest {
            empty: false,
            enemy: false,
            friend: false,
            not_royal: leg.not_royal,
            undefended: leg.undefended,
        };
        for kind in &leg.holds {
            match kind.node.as_str() {
                "empty" => holds.empty = true,
                "enemy" => holds.enemy = true,
                "friend" => holds.friend = true,
                _ => {
                    holds = SquareTest {
                        not_royal: holds.not_royal,
                        undefended: holds.undefended,
                        ..SquareTest::ANY
                    }
                }
            }
        }
        if leg.holds.is_empty() {
            if count == LegCount::One && !last {
                self.error(path_error(
                    "say what this leg's square may hold".to_string(),
                    "a step on the way",
                    "add `any`, `empty`, `enemy` or `friend` (`enemy or friend` ...)",
                ));
                return None;
            }
            holds = SquareTest {
                not_royal: holds.not_royal,
                undefended: holds.undefended,
                ..SquareTest::LANDING
            };
        }
        if last && (holds.friend || leg.convert) {
            self.error(path_error(
                "the last leg lands: it cannot hold a friend or convert".to_string(),
                "the landing square",
                "a move lands on an empty square or captures an enemy piece there",
            ));
            return None;
        }
        let only_enemy = holds.enemy && !holds.empty && !holds.friend;
        if leg.convert && !only_enemy {
            self.error(path_error(
                "`convert` takes over an enemy piece: the square must hold `enemy`".to_string(),
                "this square may hold something else",
                "write `enemy convert` (or `enemy not royal convert`)",
            ));
            return None;
        }
        if leg.undefended && !holds.enemy {
            self.error(path_error(
                "`undefended` speaks of an enemy piece".to_string(),
                "this square holds no enemy",
                "write `enemy undefended`",
            ));
            return None;
        }
        let effect = if leg.convert {
            LegEffect::Convert
        } else {
            LegEffect::None
        };
        Some((
            Leg {
                direction,
                count,
                holds,
                effect,
            },
            unit,
        ))
    }

    /// The steps of a leg's Betza atom: one leaper atom, modifiers for direction only.
    fn leg_steps(&mut self, atom: &str, span: Span) -> Option<Vec<Offset>> {
        let decoded = match betza::decode(atom) {
            Ok(decoded) => decoded,
            Err(errors) => {
                for error in errors {
                    self.error(Diagnostic::error(
                        error.code,
                        error.message,
                        span,
                        error.label,
                    ));
                }
                return None;
            }
        };
        let leaper = decoded
            .iter()
            .all(|a| a.range == Some(1) && !a.lame && !a.en_passant && !a.initial_only);
        if !leaper {
            self.error(
                Diagnostic::error(
                    code::PATH,
                    format!("`{atom}` is not a plain leaper"),
                    span,
                    "a leg steps once per direction",
                )
                .with_help("use a leaper such as `W`, `F`, `K` or `fF`; slide with `*` or `+`"),
            );
            return None;
        }
        Some(decoded.into_iter().flat_map(|a| a.steps).collect())
    }

    pub(super) fn moves(&mut self, text: &Spanned<StringLit>) -> Vec<MoveAtom> {
        match betza::decode(&text.node.value) {
            Ok(atoms) => atoms,
            Err(errors) => {
                let spans = text.spans_of(errors.iter().map(|error| error.range.clone()));
                for (error, span) in errors.into_iter().zip(spans) {
                    self.error(
                        Diagnostic::error(error.code, error.message, span, error.label)
                            .with_optional_help(error.help),
                    );
                }
                Vec::new()
            }
        }
    }

    pub(super) fn piece_id(
        &mut self,
        name: &Spanned<String>,
        pieces: &[PieceName<'_>],
        context: &str,
    ) -> Option<PieceId> {
        if let Some(index) = pieces
            .iter()
            .position(|piece| piece.statement.name.node == name.node)
        {
            return Some(PieceId(index as u8));
        }
        if self.left_out_pieces.contains(&name.node) {
            return None;
        }
        let names = pieces
            .iter()
            .map(|piece| piece.statement.name.node.as_str());
        self.error(
            Diagnostic::error(
                code::UNKNOWN_PIECE,
                format!("unknown piece `{}` in {context}", name.node),
                name.span,
                "not a piece of this game",
            )
            .with_optional_help(suggestion::did_you_mean(&name.node, names)),
        );
        None
    }
}

/// The piece's letter, upper case, where it is written, and whether it is a promoted form's
/// (`letter +P`).
fn piece_letter(statement: &PieceStatement) -> (char, Span, bool) {
    for item in &statement.items {
        match &item.node {
            PieceItem::Letter(letter) => {
                return (letter.node.to_ascii_uppercase(), letter.span, false)
            }
            PieceItem::PromotedLetter(letter) => {
                return (letter.node.to_ascii_uppercase(), letter.span, true)
            }
            _ => {}
        }
    }
    let name = &statement.name;
    (
        name.node.chars().next().unwrap_or('?').to_ascii_uppercase(),
        name.span,
        false,
    )
}

/// A leg written back in its canonical form: `straight enemy not royal convert`.
fn leg_text(leg: &LegSyntax) -> String {
    let mut words = vec![format!(
        "{}{}",
        leg.direction.node,
        leg.count.map(String::from).unwrap_or_default()
    )];
    let holds: Vec<&str> = leg.holds.iter().map(|h| h.node.as_str()).collect();
    if !holds.is_empty() {
        words.push(holds.join(" or "));
    }
    if leg.not_royal {
        words.push("not royal".to_string());
    }
    if leg.undefended {
        words.push("undefended".to_string());
    }
    if leg.convert {
        words.push("convert".to_string());
    }
    words.join(" ")
}
