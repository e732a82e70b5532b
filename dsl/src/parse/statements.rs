//! Building the AST of statements: one function per statement of the grammar, from `board` to
//! `end` (policies are in [`crate::parse::policy`], expressions and zones in
//! [`crate::parse::expressions`]).

use crate::ast::*;
use crate::definition::{CounterEvent, ObligationKind, Store, Tiebreak, Verdict};
use crate::parse::expressions::{expression, zone, zone_statement};
use crate::parse::grammar::Rule;
use crate::parse::pairs::{block_items, child, letter_of, span_of, string_of, text_of};
use crate::parse::policy::policy_statement;
use crate::span::{FileId, Span, Spanned};
use pest::iterators::{Pair, Pairs};

pub(super) fn build_statement(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Statement> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let statement = match rule {
        Rule::game_statement => Statement::Game(text_statement(file, &mut inner)),
        Rule::extends_statement => Statement::Extends(text_statement(file, &mut inner)),
        Rule::description_statement => Statement::Description(text_statement(file, &mut inner)),
        Rule::credits_statement => Statement::Credits(text_statement(file, &mut inner)),
        Rule::setup_statement => Statement::Setup(text_statement(file, &mut inner)),
        Rule::board_statement => Statement::Board(board_statement(file, &mut inner)),
        Rule::side_statement => Statement::Side(side_statement(file, &mut inner)),
        Rule::turns_statement => Statement::Turns(turns_statement(file, &mut inner)),
        Rule::policy_statement => Statement::Policy(policy_statement(file, &mut inner)),
        Rule::team_statement => {
            let keyword = span_of(file, &child(&mut inner));
            Statement::Team(TeamStatement {
                keyword,
                sides: inner.map(|side| text_of(file, &side)).collect(),
            })
        }
        Rule::piece_statement => Statement::Piece(piece_statement(file, &mut inner)),
        Rule::remove_statement => Statement::Remove(RemoveStatement {
            keyword: span_of(file, &child(&mut inner)),
            piece: text_of(file, &inner.nth(1).expect("the piece's name")),
        }),
        Rule::castling_statement => Statement::Castling(castling_statement(file, &mut inner)),
        Rule::gating_statement => Statement::Gating(GatingStatement {
            keyword: span_of(file, &child(&mut inner)),
            zone: super::expressions::zone(file, inner.nth(1).expect("the gating zone")),
        }),
        Rule::actions_statement => Statement::Actions(actions_statement(file, &mut inner)),
        Rule::drops_statement => Statement::Drops(drops_statement(file, &mut inner)),
        Rule::move_rules_statement => Statement::MoveRules(drops_statement(file, &mut inner)),
        Rule::counter_statement => Statement::Counter(counter_statement(file, &mut inner)),
        Rule::phase_statement => Statement::Phase(phase_statement(file, &mut inner)),
        Rule::turn_statement => Statement::Turn(turn_statement(file, &mut inner)),
        Rule::control_statement => Statement::Control(control_statement(file, &mut inner)),
        Rule::capture_statement => Statement::Capture(capture_statement(file, &mut inner)),
        Rule::score_statement => Statement::Score(score_statement(file, &mut inner)),
        Rule::end_statement => Statement::End(end_statement(file, &mut inner)),
        Rule::zone_statement => Statement::Zone(zone_statement(file, &mut inner)),
        _ => Statement::Future(future_statement(file, &mut inner)),
    };
    Spanned::new(statement, span)
}

fn text_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> TextStatement {
    let keyword = span_of(file, &child(inner));
    TextStatement {
        keyword,
        text: string_of(file, child(inner)),
    }
}

pub(super) fn future_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> FutureStatement {
    FutureStatement {
        keyword: text_of(file, &child(inner)),
    }
}

pub(super) fn board_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> BoardStatement {
    let keyword = span_of(file, &child(inner));
    let mut size = child(inner).into_inner();
    let files = text_of(file, &child(&mut size));
    let ranks = text_of(file, &child(&mut size));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::holes_statement => {
                    BoardItem::Holes(parts.skip(1).map(|square| text_of(file, &square)).collect())
                }
                _ => BoardItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    BoardStatement {
        keyword,
        files,
        ranks,
        items,
    }
}

pub(super) fn side_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> SideStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::forward_statement => {
                    SideItem::Forward(text_of(file, &parts.nth(1).expect("direction")))
                }
                Rule::fen_letter_statement => {
                    SideItem::FenLetter(letter_of(file, &parts.nth(1).expect("letter")))
                }
                Rule::piece_letters_statement => {
                    parts.next();
                    let mut pairs = Vec::new();
                    while let (Some(name), Some(letter)) = (parts.next(), parts.next()) {
                        pairs.push((text_of(file, &name), letter_of(file, &letter)));
                    }
                    SideItem::Letters(pairs)
                }
                Rule::numbers_statement => {
                    parts.next();
                    SideItem::Numbers(
                        parts
                            .map(|part| match part.as_rule() {
                                Rule::square_path => square_path(file, part),
                                _ => (text_of(file, &part), text_of(file, &part)),
                            })
                            .collect(),
                    )
                }
                _ => SideItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    SideStatement {
        keyword,
        name,
        items,
    }
}

pub(super) fn turns_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> TurnsStatement {
    let keyword = span_of(file, &child(inner));
    TurnsStatement {
        keyword,
        sides: inner.map(|side| text_of(file, &side)).collect(),
    }
}

pub(super) fn piece_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> PieceStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| piece_item(file, pair))
        .collect();
    PieceStatement {
        keyword,
        name,
        items,
    }
}

pub(super) fn piece_item(file: FileId, pair: Pair<'_, Rule>) -> Spanned<PieceItem> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut parts = pair.into_inner();
    let item = match rule {
        Rule::letter_statement => {
            let letter = parts.nth(1).expect("letter");
            match letter.as_rule() {
                Rule::promoted_letter => PieceItem::PromotedLetter(letter_of(
                    file,
                    &letter.into_inner().next().expect("the letter after `+`"),
                )),
                _ => PieceItem::Letter(letter_of(file, &letter)),
            }
        }
        Rule::value_statement => PieceItem::Value(text_of(file, &parts.nth(1).expect("value"))),
        Rule::royal_statement => PieceItem::Royal,
        Rule::moves_statement => {
            let moves = string_of(file, parts.nth(1).expect("moves"));
            match parts.next() {
                Some(place) => {
                    let along = place.as_rule() == Rule::moves_along;
                    let zone = zone(file, place.into_inner().nth(1).expect("zone"));
                    if along {
                        PieceItem::MovesAlong { moves, zone }
                    } else {
                        PieceItem::MovesIn { moves, zone }
                    }
                }
                None => PieceItem::Moves(moves),
            }
        }
        Rule::may_not_statement => {
            let hop = parts.nth(2).expect("hop over or capture").as_rule() == Rule::hop_over;
            PieceItem::MayNot {
                hop,
                pieces: parts.map(|name| text_of(file, &name)).collect(),
            }
        }
        Rule::confined_statement => PieceItem::Confined(zone(file, parts.nth(2).expect("zone"))),
        Rule::initial_statement => PieceItem::Initial(zone(file, parts.nth(1).expect("zone"))),
        Rule::en_passant_statement => {
            PieceItem::EnPassantOn(zone(file, parts.nth(2).expect("zone")))
        }
        Rule::promotes_statement => {
            parts.next();
            let mut next = parts.next().expect("`for` or `on`");
            let side = (next.as_rule() == Rule::kw_for).then(|| {
                let side = text_of(file, &parts.next().expect("side"));
                next = parts.next().expect("on");
                side
            });
            let optionally = next.as_rule() == Rule::kw_optionally;
            if optionally {
                next = parts.next().expect("which moves");
            }
            let moves = promotion_moves(next);
            let zone = zone(file, parts.next().expect("zone"));
            let choices = parts.skip(1).map(|name| text_of(file, &name)).collect();
            PieceItem::Promotes {
                side,
                optionally,
                moves,
                zone,
                choices,
            }
        }
        Rule::promotes_in_place_statement => {
            let mut step = None;
            let mut choices = Vec::new();
            let mut rules = Vec::new();
            for part in parts {
                match part.as_rule() {
                    Rule::string => step = Some(string_of(file, part)),
                    Rule::identifier => choices.push(text_of(file, &part)),
                    Rule::in_place_rules => rules = block_rules(file, part.into_inner()),
                    _ => {}
                }
            }
            PieceItem::PromotesInPlace {
                step,
                choices,
                rules,
            }
        }
        Rule::irreversible_statement => PieceItem::Irreversible,
        Rule::uncapturable_statement => PieceItem::Uncapturable,
        Rule::chase_strength_statement => {
            PieceItem::ChaseStrength(text_of(file, &parts.nth(2).expect("strength")))
        }
        Rule::never_chases_statement => PieceItem::NeverChases,
        Rule::chased_in_statement => PieceItem::ChasedIn(zone(file, parts.nth(2).expect("zone"))),
        Rule::supply_statement => PieceItem::Supply,
        Rule::neutral_statement => PieceItem::Neutral,
        Rule::converts_statement => PieceItem::ConvertsAround,
        Rule::path_statement => PieceItem::Path(path(file, parts)),
        _ => PieceItem::Future(future_statement(file, &mut parts)),
    };
    Spanned::new(item, span)
}

/// Which moves a `promotes` statement promotes: the union of its words (`on or from`).
fn promotion_moves(pair: Pair<'_, Rule>) -> crate::definition::PromotionMoves {
    let mut moves = crate::definition::PromotionMoves::NONE;
    for word in pair.into_inner() {
        let first = word.into_inner().next().map(|w| w.as_rule());
        match first {
            Some(Rule::kw_on) => {
                moves.entering = true;
                moves.within = true;
            }
            Some(Rule::kw_into) => moves.entering = true,
            Some(Rule::kw_within) => moves.within = true,
            Some(Rule::kw_from) => {
                moves.within = true;
                moves.leaving = true;
            }
            _ => moves.leaving = true,
        }
    }
    moves
}

/// The legs of a `path` statement (its pairs after the keyword; `then` keywords skipped).
pub(super) fn path(file: FileId, parts: Pairs<'_, Rule>) -> Vec<Spanned<LegSyntax>> {
    parts
        .filter(|pair| pair.as_rule() == Rule::leg)
        .map(|pair| {
            let span = span_of(file, &pair);
            let mut leg = LegSyntax {
                direction: Spanned::new(String::new(), span),
                count: None,
                holds: Vec::new(),
                not_royal: false,
                undefended: false,
                convert: false,
            };
            for part in pair.into_inner() {
                match part.as_rule() {
                    Rule::leg_head => {
                        for head in part.into_inner() {
                            match head.as_rule() {
                                Rule::leg_direction => leg.direction = text_of(file, &head),
                                _ => leg.count = head.as_str().chars().next(),
                            }
                        }
                    }
                    Rule::square_test => {
                        for test in part.into_inner() {
                            match test.as_rule() {
                                Rule::square_kind => leg.holds.push(text_of(file, &test)),
                                Rule::not_royal => leg.not_royal = true,
                                Rule::kw_undefended => leg.undefended = true,
                                // `or` between the kinds says nothing more.
                                _ => {}
                            }
                        }
                    }
                    _ => leg.convert = true,
                }
            }
            Spanned::new(leg, span)
        })
        .collect()
}

pub(super) fn castling_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> CastlingStatement {
    let keyword = span_of(file, &child(inner));
    let castles = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let mut parts = pair.into_inner();
            let side = text_of(file, &child(&mut parts));
            let letter = letter_of(file, &child(&mut parts));
            // What follows `king` and `rook`: an optional piece name, then the path.
            let mut piece_and_path = || {
                parts.next(); // the keyword
                let mut next = child(&mut parts);
                let piece = (next.as_rule() == Rule::castle_piece).then(|| {
                    let name = text_of(file, &next);
                    next = child(&mut parts);
                    name
                });
                (piece, square_path(file, next))
            };
            let (king_piece, (king_from, king_to)) = piece_and_path();
            let (rook_piece, (rook_from, rook_to)) = piece_and_path();
            let when_placed = parts.next().map(|pair| span_of(file, &pair));
            Spanned::new(
                Castle {
                    side,
                    letter,
                    king_piece,
                    king_from,
                    king_to,
                    rook_piece,
                    rook_from,
                    rook_to,
                    when_placed,
                },
                span,
            )
        })
        .collect();
    CastlingStatement { keyword, castles }
}

pub(super) fn square_path(
    file: FileId,
    pair: Pair<'_, Rule>,
) -> (Spanned<String>, Spanned<String>) {
    let mut squares = pair.into_inner();
    let from = text_of(file, &child(&mut squares));
    let to = text_of(file, &child(&mut squares));
    (from, to)
}

pub(super) fn actions_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> ActionsStatement {
    let keyword = span_of(file, &child(inner));
    let kinds = inner
        .map(|kind| {
            let span = span_of(file, &kind);
            let action = match kind.into_inner().next().map(|word| word.as_rule()) {
                Some(Rule::kw_moves) => ActionKind::Moves,
                _ => ActionKind::Drops,
            };
            Spanned::new(action, span)
        })
        .collect();
    ActionsStatement { keyword, kinds }
}

pub(super) fn drops_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> DropsStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_rules(file, inner.clone());
    DropsStatement { keyword, items }
}

/// The rules of a block written as a `drops` or `moves` block's.
fn block_rules(file: FileId, inner: Pairs<'_, Rule>) -> Vec<Spanned<DropsItem>> {
    block_items(inner)
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::drop_constraint | Rule::move_constraint => {
                    DropsItem::Must(Box::new(must_statement(file, parts)))
                }
                Rule::move_obligation => {
                    DropsItem::Obligation(Box::new(obligation_statement(file, parts)))
                }
                Rule::drops_irreversible => DropsItem::Irreversible,
                _ => DropsItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect()
}

pub(super) fn phase_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> PhaseStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    let mut order = None;
    let mut rules = Vec::new();
    for pair in block_items(inner.clone()) {
        let span = span_of(file, &pair);
        let rule = pair.as_rule();
        let mut parts = pair.into_inner();
        match rule {
            Rule::order_statement => {
                let sides = parts
                    .filter(|p| p.as_rule() == Rule::identifier)
                    .map(|p| text_of(file, &p))
                    .collect();
                order = Some(Spanned::new(sides, span));
            }
            Rule::drop_constraint => rules.push(Spanned::new(
                DropsItem::Must(Box::new(must_statement(file, parts))),
                span,
            )),
            Rule::move_obligation => rules.push(Spanned::new(
                DropsItem::Obligation(Box::new(obligation_statement(file, parts))),
                span,
            )),
            _ => rules.push(Spanned::new(
                DropsItem::Future(future_statement(file, &mut parts)),
                span,
            )),
        }
    }
    PhaseStatement {
        keyword,
        name,
        order,
        rules,
    }
}

pub(super) fn turn_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> TurnStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::turn_length_rule => {
                    TurnItem::Length(text_of(file, &parts.nth(2).expect("a number")))
                }
                Rule::maximal_rule => TurnItem::Maximal,
                Rule::pass_rule => TurnItem::Pass,
                Rule::may_pass_rule => TurnItem::MayPass,
                Rule::exchange_rule => TurnItem::ExchangePrisoners,
                _ => TurnItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    TurnStatement { keyword, items }
}

/// `[side] must EXPRESSION [when EXPRESSION]`: the keywords `must` and `when` are skipped.
fn must_statement(file: FileId, parts: Pairs<'_, Rule>) -> MustStatement {
    let mut side = None;
    let mut expressions = Vec::new();
    for part in parts {
        match part.as_rule() {
            Rule::identifier => side = Some(text_of(file, &part)),
            Rule::expression => expressions.push(expression(file, part)),
            _ => {}
        }
    }
    let mut expressions = expressions.into_iter();
    MustStatement {
        side,
        requirement: expressions
            .next()
            .expect("the grammar requires a requirement"),
        condition: expressions.next(),
    }
}

/// `[side] must capture [when CONDITION]`.
fn obligation_statement(file: FileId, parts: Pairs<'_, Rule>) -> ObligationStatement {
    let mut side = None;
    let mut kind = None;
    let mut condition = None;
    for part in parts {
        match part.as_rule() {
            Rule::identifier => side = Some(text_of(file, &part)),
            Rule::obligation_kind => kind = Some(obligation_kind(file, part)),
            Rule::obligation_condition => {
                let span = span_of(file, &part);
                let inner = part.into_inner().next().expect("a condition");
                let written = match inner.as_rule() {
                    Rule::possible_clause => {
                        let kind = inner
                            .into_inner()
                            .find(|p| p.as_rule() == Rule::obligation_kind)
                            .expect("the kind of action");
                        ObligationCondition::Possible(obligation_kind(file, kind).node)
                    }
                    _ => ObligationCondition::When(expression(file, inner).node),
                };
                condition = Some(Spanned::new(written, span));
            }
            _ => {}
        }
    }
    ObligationStatement {
        side,
        kind: kind.expect("the grammar requires the kind"),
        condition,
    }
}

fn obligation_kind(file: FileId, pair: Pair<'_, Rule>) -> Spanned<ObligationKind> {
    let span = span_of(file, &pair);
    let kind = match pair.into_inner().next().map(|word| word.as_rule()) {
        Some(Rule::kw_capture) => ObligationKind::Capture,
        _ => ObligationKind::Drop,
    };
    Spanned::new(kind, span)
}

/// `counter NAME { start N; add N on EVENT; fen remaining N | fen count }`.
fn counter_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> CounterStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let parts: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
            let number = || {
                let integer = parts
                    .iter()
                    .find(|p| p.as_rule() == Rule::integer)
                    .expect("a number");
                text_of(file, integer)
            };
            let item = match rule {
                Rule::counter_start => CounterItem::Start(number()),
                Rule::counter_add => {
                    let event = parts
                        .iter()
                        .find(|p| p.as_rule() == Rule::counter_event)
                        .and_then(|p| p.clone().into_inner().next())
                        .map(|word| word.as_rule());
                    let event = match event {
                        Some(Rule::kw_check) => CounterEvent::Check,
                        _ => CounterEvent::Capture,
                    };
                    CounterItem::Add(number(), event)
                }
                _ if parts.iter().any(|p| p.as_rule() == Rule::integer) => {
                    CounterItem::FenRemaining(number())
                }
                _ => CounterItem::FenCount,
            };
            Spanned::new(item, span)
        })
        .collect();
    CounterStatement {
        keyword,
        name,
        items,
    }
}

pub(super) fn control_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> ControlStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::en_passant_standing_rule => ControlItem::EnPassantStanding,
                _ => ControlItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    ControlStatement { keyword, items }
}

pub(super) fn capture_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> CaptureStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::remove_capturer_rule => CaptureItem::RemoveCapturer,
                Rule::capture_store_rule => {
                    let mut pieces = Vec::new();
                    let mut store = Store::Hand;
                    for part in parts {
                        match part.as_rule() {
                            Rule::identifier => pieces.push(text_of(file, &part)),
                            Rule::kw_prison => store = Store::Prison,
                            _ => {}
                        }
                    }
                    CaptureItem::Store(pieces, store)
                }
                Rule::remove_around_rule => CaptureItem::RemoveAround(
                    parts
                        .filter(|p| p.as_rule() == Rule::identifier)
                        .map(|p| text_of(file, &p))
                        .collect(),
                ),
                _ => CaptureItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    CaptureStatement { keyword, items }
}

pub(super) fn score_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> ScoreStatement {
    let keyword = span_of(file, &child(inner));
    ScoreStatement {
        keyword,
        expression: expression(file, child(inner)),
    }
}

pub(super) fn end_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> EndStatement {
    let keyword = span_of(file, &child(inner));
    let rules = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let end_rule = match rule {
                Rule::check_rule if parts.clone().nth(1).is_some() => EndRule::CheckWhenAll,
                Rule::check_rule => EndRule::Check,
                Rule::checkmate_rule => {
                    EndRule::Checkmate(verdict(file, parts.nth(1).expect("verdict")))
                }
                Rule::stalemate_rule => {
                    EndRule::Stalemate(verdict(file, parts.nth(1).expect("verdict")))
                }
                Rule::repetition_rule => {
                    let count = text_of(file, &parts.nth(1).expect("count"));
                    let verdict_of_repetition = end_result(file, child(&mut parts));
                    let mut for_side = None;
                    let mut perpetual_check = None;
                    let mut perpetual_chase = None;
                    for clause in parts {
                        match clause.as_rule() {
                            // `for SIDE`: its last child is the side's name.
                            Rule::verdict_for => {
                                for_side =
                                    clause.into_inner().last().map(|name| text_of(file, &name));
                            }
                            // `, perpetual chase VERDICT`: its last child is the verdict.
                            Rule::perpetual_chase => {
                                perpetual_chase =
                                    clause.into_inner().last().map(|last| verdict(file, last));
                            }
                            // `, perpetual check VERDICT`: its last child is the verdict.
                            _ => {
                                perpetual_check =
                                    clause.into_inner().last().map(|last| verdict(file, last));
                            }
                        }
                    }
                    EndRule::Repetition {
                        count,
                        verdict: verdict_of_repetition,
                        for_side,
                        perpetual_check,
                        perpetual_chase,
                    }
                }
                Rule::move_limit_rule => {
                    let moves = text_of(file, &parts.nth(1).expect("moves"));
                    let mut next = child(&mut parts);
                    let plies = next.as_rule() == Rule::kw_plies;
                    if plies {
                        next = child(&mut parts);
                    }
                    EndRule::MoveLimit {
                        moves,
                        plies,
                        verdict: end_result(file, next),
                    }
                }
                Rule::condition_rule => {
                    let mut first = child(&mut parts);
                    let each_side = first.as_rule() == Rule::each_side;
                    if each_side {
                        first = child(&mut parts);
                    }
                    let verdict = end_result(file, first);
                    EndRule::Condition {
                        each_side,
                        verdict,
                        condition: expression(file, parts.nth(1).expect("a condition")),
                    }
                }
                Rule::material_rule => EndRule::Material(material_statement(file, parts)),
                Rule::royal_captured_rule => {
                    EndRule::RoyalCaptured(verdict(file, parts.nth(2).expect("verdict")))
                }
                Rule::tiebreak_rule => {
                    let tiebreak = parts.nth(1).expect("tiebreak");
                    EndRule::Tiebreak(Spanned::new(
                        Tiebreak::FewestInHand,
                        span_of(file, &tiebreak),
                    ))
                }
                _ => EndRule::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(end_rule, span)
        })
        .collect();
    EndStatement { keyword, rules }
}

/// `material TERM... [on one colour] VERDICT`; the keyword `material` is skipped.
fn material_statement(file: FileId, parts: Pairs<'_, Rule>) -> MaterialStatement {
    let mut pieces = Vec::new();
    let mut one_colour = None;
    let mut verdict_found = None;
    for part in parts {
        match part.as_rule() {
            Rule::material_term => {
                let span = span_of(file, &part);
                let text = part.as_str();
                let (name, quantifier) = match text.as_bytes().last() {
                    Some(b'*') => (&text[..text.len() - 1], Quantifier::AnyNumber),
                    Some(b'+') => (&text[..text.len() - 1], Quantifier::OneOrMore),
                    _ => (text, Quantifier::One),
                };
                let name_span = Span::new(file, span.start, span.start + name.len());
                let piece = Spanned::new(name.to_string(), name_span);
                pieces.push(Spanned::new(MaterialTerm { piece, quantifier }, span));
            }
            Rule::one_colour => one_colour = Some(span_of(file, &part)),
            Rule::verdict => verdict_found = Some(verdict(file, part)),
            _ => {}
        }
    }
    MaterialStatement {
        pieces,
        one_colour,
        verdict: verdict_found.expect("the grammar requires a verdict"),
    }
}

/// `by score` (`None`) or a verdict, from an `end_result`.
fn end_result(file: FileId, pair: Pair<'_, Rule>) -> Option<Spanned<Verdict>> {
    let result = pair.into_inner().next().expect("a result");
    (result.as_rule() == Rule::verdict).then(|| verdict(file, result))
}

pub(super) fn verdict(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Verdict> {
    let span = span_of(file, &pair);
    let verdict = match pair.as_str() {
        "wins" => Verdict::Win,
        "draws" => Verdict::Draw,
        _ => Verdict::Loss,
    };
    Spanned::new(verdict, span)
}
