//! A readable dump of a compiled game: what the tables hold, one line per fact.
//!
//! It describes the compiled [`Rules`], not the source: how many squares, which bitboard width,
//! which leap tables, lame leaps and rides each piece of each side got, how attacks were
//! inverted and grouped, and the castling paths. Snapshot tests keep it stable.

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId};
use crate::rules::{PieceMoves, Rules};
use std::fmt::Write;
use variant_dsl::MoveMode;

fn mode_word(mode: MoveMode) -> &'static str {
    match mode {
        MoveMode::Both => "move or capture",
        MoveMode::MoveOnly => "move only",
        MoveMode::CaptureOnly => "capture only",
    }
}

fn squares_text<B: Bitboard>(rules: &Rules<B>, set: B) -> String {
    let names: Vec<String> = set
        .squares()
        .map(|s| rules.geometry().square(s).to_string())
        .collect();
    if names.is_empty() {
        "nowhere".to_string()
    } else {
        names.join(" ")
    }
}

fn describe_piece<B: Bitboard>(rules: &Rules<B>, out: &mut String, moves: &PieceMoves<B>) {
    for table in &moves.leaps {
        let distinct: usize = table
            .targets
            .iter()
            .map(|t| t.count() as usize)
            .max()
            .unwrap_or(0);
        let initial = if table.initial_only {
            ", initial only"
        } else {
            ""
        };
        let noun = if distinct == 1 { "target" } else { "targets" };
        let _ = writeln!(
            out,
            "    leap table: {}{initial}, up to {distinct} {noun} from one square",
            mode_word(table.mode)
        );
    }
    let lame: usize = moves.lame.iter().map(Vec::len).sum();
    if lame > 0 {
        let initial = moves
            .lame
            .iter()
            .flatten()
            .filter(|l| l.initial_only)
            .count();
        let _ = writeln!(
            out,
            "    lame leaps: {lame} over the board ({initial} initial only)"
        );
    }
    for ride in &moves.rides {
        let ray = &rules.rays()[ride.ray];
        let range = ride
            .range
            .map_or("unlimited".to_string(), |r| format!("range {r}"));
        let initial = if ride.initial_only {
            ", initial only"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "    ride ({}, {}) {range}: {}{initial}",
            ray.dx,
            ray.dy,
            mode_word(ride.mode)
        );
    }
    for hop in &moves.hops {
        let ray = &rules.rays()[hop.ray];
        let initial = if hop.initial_only {
            ", initial only"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "    hop ({}, {}) {}: {}{initial}",
            ray.dx,
            ray.dy,
            hop_word(hop.hop),
            mode_word(hop.mode)
        );
    }
    let en_passant: usize = moves.en_passant.iter().map(|t| t.count() as usize).sum();
    if en_passant > 0 {
        let _ = writeln!(out, "    en-passant captures: {en_passant} over the board");
    }
    if moves.initial_zone.any() {
        let _ = writeln!(
            out,
            "    initial zone: {}",
            squares_text(rules, moves.initial_zone)
        );
    }
    if let Some(promotion) = &moves.promotion {
        let choices: Vec<&str> = promotion
            .choices
            .iter()
            .map(|c| rules.definition().pieces[c.0 as usize].name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "    promotes on {} to {}",
            squares_text(rules, promotion.zone),
            choices.join(" ")
        );
    }
}

/// The compiled game, described.
pub fn describe<B: Bitboard>(rules: &Rules<B>) -> String {
    let mut out = String::new();
    let g = &rules.geometry();
    let _ = writeln!(
        out,
        "{}: {}x{} grid, {} squares on the board, {}-bit bitboards, {} shared rays",
        rules.definition().name,
        g.files,
        g.ranks,
        g.board.count(),
        B::CAPACITY,
        rules.rays().len()
    );
    let _ = writeln!(
        out,
        "legality by pins and checks: {}",
        if rules.pins_suffice() {
            "exact"
        } else {
            "by playing each move"
        }
    );
    let def = &rules.definition();
    let actions: Vec<&str> = [(def.actions.moves, "moves"), (def.actions.drops, "drops")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect();
    let _ = writeln!(
        out,
        "actions: {}; {} drop rules{}",
        actions.join(" and "),
        def.drops.constraints.len(),
        if rules.drop_lookahead() {
            ", lookahead"
        } else {
            ""
        }
    );
    if let Some(score) = rules.score_expression() {
        let _ = writeln!(out, "score: {score:?}");
    }
    for side in 0..rules.sides() {
        let side_name = &rules.definition().sides[side].name;
        for piece in 0..rules.pieces() {
            let def = &rules.definition().pieces[piece];
            let royal = if def.royal { ", royal" } else { "" };
            let _ = writeln!(out, "{side_name} {} ({}{royal}):", def.name, def.betza);
            describe_piece(
                rules,
                &mut out,
                rules.moves_of(SideId::new(side), PieceId::new(piece)),
            );
        }
        let attacks = rules.attacks_of(SideId::new(side));
        let _ = writeln!(
            out,
            "{side_name} attacks: {} leap tables, {} lame tables, {} ride groups",
            attacks.leaps.len(),
            attacks.lame.len(),
            attacks.rides.len()
        );
        for hop in &attacks.hops {
            let ray = &rules.rays()[hop.ray];
            let names: Vec<&str> = hop
                .pieces
                .iter()
                .map(|p| rules.definition().pieces[p.0 as usize].name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "    {} from direction ({}, {}): {}",
                hop_word(hop.hop),
                ray.dx,
                ray.dy,
                names.join(" ")
            );
        }
        for ride in &attacks.rides {
            let ray = &rules.rays()[ride.ray];
            let names: Vec<&str> = ride
                .pieces
                .iter()
                .map(|p| rules.definition().pieces[p.0 as usize].name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "    from direction ({}, {}): {}",
                ray.dx,
                ray.dy,
                names.join(" ")
            );
        }
    }
    for castle in rules.castles() {
        let _ = writeln!(
            out,
            "castling for {}: king {}-{}, rook {}-{}, empty {}, king passes {}",
            rules.definition().sides[castle.side.0 as usize].name,
            g.square(castle.king_from),
            g.square(castle.king_to),
            g.square(castle.rook_from),
            g.square(castle.rook_to),
            squares_text(rules, castle.empty),
            castle
                .king_path
                .iter()
                .map(|&s| g.square(s).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    out
}

/// The kind of a hop, in words.
fn hop_word(hop: variant_dsl::Hop) -> &'static str {
    match hop {
        variant_dsl::Hop::Cannon => "cannon",
        variant_dsl::Hop::Grasshopper => "grasshopper",
        variant_dsl::Hop::None => "none",
    }
}
