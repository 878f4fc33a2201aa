//! Board properties over random legal games, FEN errors, notation and SEE.

mod common;

use brokkr::attacks::{Magic, Slider};
use brokkr::bits::Portable;
use brokkr::board::{Board, FenError, MoveError, Position, Stage};
use brokkr::types::{Color, Move, Square};
use common::STARTS;
use quickcheck::{quickcheck, TestResult};

type B = Board<Magic>;

/// Play a random legal game from `STARTS[start]` chosen by `choices` (at most
/// 120 moves), calling `visit` before each move.
fn random_game(start: usize, choices: &[u8], visit: impl FnMut(&B, Move)) -> B {
    common::random_game(
        common::start(start),
        choices.iter().take(120).map(|&c| u64::from(c)),
        visit,
    )
}

quickcheck! {
    fn make_unmake_restores_the_board(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, m| {
            let mut c = *b;
            let undo = c.make_undoable::<brokkr::bits::Portable>(m);
            c.unmake(m, &undo);
            ok &= c == *b;
        });
        ok
    }

    fn position_push_pop_restores_the_board(start: usize, choices: Vec<u8>) -> bool {
        let mut pos = Position::<Magic>::from_fen(STARTS[start % STARTS.len()]).unwrap();
        let mut boards = vec![*pos.board()];
        for &c in choices.iter().take(60) {
            let moves = pos.board().legal_moves::<Portable>();
            if moves.is_empty() { break; }
            pos.push(moves.as_slice()[c as usize % moves.len()]);
            boards.push(*pos.board());
        }
        while let Some(b) = boards.pop() {
            if *pos.board() != b { return false; }
            pos.pop();
        }
        true
    }

    fn incremental_keys_equal_recomputation(start: usize, choices: Vec<u8>) -> bool {
        let b = random_game(start, &choices, |b, _| {
            assert_eq!((b.key(), b.pawn_key()), b.recompute_keys(), "{}", b.to_fen());
        });
        (b.key(), b.pawn_key()) == b.recompute_keys()
    }

    fn fen_round_trips(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            let fen = b.to_fen();
            match B::from_fen(&fen) {
                Ok(back) => ok &= back == *b && back.to_fen() == fen,
                Err(e) => panic!("{fen}: {e}"),
            }
        });
        ok
    }

    fn is_legal_agrees_with_the_generator(start: usize, choices: Vec<u8>, raw: Vec<u16>) -> bool {
        let mut ok = true;
        let mut other_moves: Vec<Move> = raw.iter().map(|&r| Move::from_bits(r)).collect();
        random_game(start, &choices, |b, played| {
            let legal = b.legal_moves::<Portable>();
            for m in legal.iter() {
                ok &= b.is_legal::<Portable>(m);
            }
            // Moves from earlier positions are the realistic source of bad moves.
            for &m in &other_moves {
                ok &= b.is_legal::<Portable>(m) == legal.contains(m);
            }
            other_moves.push(played);
        });
        ok
    }

    fn gives_check_agrees_with_making_the_move(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            for m in b.legal_moves::<Portable>().iter() {
                ok &= b.gives_check::<Portable>(m) == b.with_move::<brokkr::bits::Portable>(m).in_check();
            }
        });
        ok
    }

    fn threats_are_the_squares_the_other_side_attacks(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            let them = b.side_to_move().flip();
            let expected = (0..64u32)
                .filter(|&s| b.is_attacked(Square::new(s), them))
                .fold(0u64, |t, s| t | 1 << s);
            ok &= b.threats::<Portable>() == expected;
        });
        ok
    }

    fn stages_partition_all_moves(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            let all = b.legal_moves::<Portable>();
            let caps = b.stage_moves::<Portable>(Stage::Captures);
            let quiets = b.stage_moves::<Portable>(Stage::Quiets);
            ok &= caps.len() + quiets.len() == all.len();
            ok &= caps.iter().chain(quiets.iter()).all(|m| all.contains(m));
            ok &= caps.iter().all(|m| b.piece_on(m.to()).is_some() || m.promotion_kind().is_some()
                || m.kind() == brokkr::types::MoveKind::EnPassant);
        });
        ok
    }

    fn uci_and_san_round_trip(start: usize, choices: Vec<u8>) -> TestResult {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            for m in b.legal_moves::<Portable>().iter() {
                ok &= b.parse_uci(&b.to_uci(m)) == Ok(m);
                ok &= b.parse_san(&b.to_san(m)) == Ok(m);
            }
        });
        TestResult::from_bool(ok)
    }

    fn count_equals_list_length(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            ok &= b.count_moves::<Portable>() == b.legal_moves::<Portable>().len() as u64;
        });
        ok
    }
}

fn fen_err(fen: &str) -> FenError {
    B::from_fen(fen).expect_err(fen)
}

#[test]
fn fen_errors_are_specific() {
    use FenError::*;
    let cases: &[(&str, FenError, &str)] = &[
        ("", MissingFields(0), "need at least"),
        ("8/8/8/8/8/8/8/K6k w", MissingFields(2), "2 field"),
        (
            "8/8/8/8/8/8/8/K6k w - - 0 1 extra",
            TooManyFields(7),
            "at most 6",
        ),
        ("8/8/8/8/8/8/K6k w - - 0 1", RankCount(7), "7 rank"),
        (
            "8/8/8/8/8/8/8/K5k w - - 0 1",
            RankLength {
                rank: 1,
                squares: 7,
            },
            "rank 1 describes 7",
        ),
        (
            "8/8/8/8/8/8/9/K6k w - - 0 1",
            RankTooLong { rank: 2 },
            "rank 2 has more than 8 squares",
        ),
        (
            "8/8/8/8/8/8/08/K6k w - - 0 1",
            BadDigit('0'),
            "bad digit '0'",
        ),
        (
            "8/8/8/8/8/8/8/K6kk w - - 0 1",
            RankLength {
                rank: 1,
                squares: 9,
            },
            "9 squares",
        ),
        (
            "8/8/8/8/8/8/8/K6x w - - 0 1",
            BadPiece('x'),
            "bad piece letter 'x'",
        ),
        (
            "8/8/8/8/8/8/8/K6k x - - 0 1",
            BadSide("x".into()),
            "side to move 'x'",
        ),
        (
            "8/8/8/8/8/8/8/7k w - - 0 1",
            MissingKing(Color::White),
            "white has no king",
        ),
        (
            "k7/8/8/8/8/8/8/K6K w - - 0 1",
            TooManyKings(Color::White),
            "more than one king",
        ),
        (
            "k7/8/8/8/8/8/8/K5Pp w - - 0 1",
            PawnOnBackRank(Square::parse("g1").unwrap()),
            "pawn on g1",
        ),
        (
            "k6P/8/8/8/8/8/8/K7 w - - 0 1",
            PawnOnBackRank(Square::parse("h8").unwrap()),
            "pawn on h8",
        ),
        (
            "k7/8/8/8/8/8/8/R5K1 w - - 0 1",
            OpponentInCheck,
            "not to move is in check",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkqX - 0 1",
            BadCastling("KQkqX".into()),
            "castling field",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1",
            BadCastling("KK".into()),
            "castling field",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1",
            CastlingPieces {
                right: 'K',
                reason: "no rook on that side of the king",
            },
            "castling right 'K'",
        ),
        (
            "r3k2r/8/8/8/8/8/4K3/R6R w Q - 0 1",
            CastlingPieces {
                right: 'Q',
                reason: "the king is not on its first rank",
            },
            "first rank",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w G - 0 1",
            CastlingPieces {
                right: 'G',
                reason: "no rook of that colour on that file",
            },
            "on that file",
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - e9 0 1",
            BadEnPassantSyntax("e9".into()),
            "en-passant field 'e9'",
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - e3 0 1",
            ImpossibleEnPassant {
                square: Square::parse("e3").unwrap(),
                reason: "not on the rank a double pawn move passes for the side that just moved",
            },
            "impossible en-passant square e3",
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - e6 0 1",
            ImpossibleEnPassant {
                square: Square::parse("e6").unwrap(),
                reason: "no pawn that could just have moved two squares",
            },
            "no pawn",
        ),
        (
            "k7/4p3/8/4p3/8/8/8/K7 w - e6 0 1",
            ImpossibleEnPassant {
                square: Square::parse("e6").unwrap(),
                reason: "the pawn's path is not empty",
            },
            "path",
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - - x 1",
            BadCounter {
                field: "halfmove clock",
                value: "x".into(),
            },
            "halfmove clock 'x'",
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - - 0 -3",
            BadCounter {
                field: "fullmove number",
                value: "-3".into(),
            },
            "fullmove number '-3'",
        ),
    ];
    for (fen, err, text) in cases {
        let got = fen_err(fen);
        assert_eq!(&got, err, "{fen}");
        assert!(
            got.to_string().contains(text),
            "{fen}: message '{got}' lacks '{text}'"
        );
    }
}

#[test]
fn fen_accepts_epd_shredder_xfen_and_extra_spaces() {
    let epd = B::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(epd, B::startpos());
    let spaced =
        B::from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq   -  0   1 ").unwrap();
    assert_eq!(spaced, B::startpos());
    let shredder = B::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
    assert_eq!(shredder.castling_rights(), B::startpos().castling_rights());
    assert_eq!(shredder.key(), B::startpos().key());
    let no_fullmove =
        B::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0").unwrap();
    assert_eq!(no_fullmove, B::startpos());
    // X-FEN: K names the outermost rook on the king side (g1 here, not the h-file).
    let xfen = B::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1").unwrap();
    assert_eq!(xfen.castling_rook(0), Square::parse("g1"));
    assert_eq!(xfen.castling_rook(1), Square::parse("b1"));
    assert!(xfen.is_chess960());
}

#[test]
fn en_passant_square_is_kept_only_when_capturable() {
    let b = B::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3").unwrap();
    assert_eq!(b.ep_square(), Square::parse("e3"));
    let b = B::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(b.ep_square(), None);
    assert!(b.to_fen().contains(" - "));
}

#[test]
fn uci_notation_in_standard_and_chess960_modes() {
    let mut b = B::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let castle = b.parse_uci("e1g1").unwrap();
    assert_eq!(b.to_uci(castle), "e1g1");
    assert_eq!(b.parse_uci("e1h1"), Ok(castle));
    b.set_chess960(true);
    assert_eq!(b.to_uci(castle), "e1h1");
    assert!(matches!(b.parse_uci("e1e3"), Err(MoveError::Illegal(_))));
    for bad in ["", "e2", "e2e4x", "i2i4", "e2e4qq", "e7e8k"] {
        assert!(
            matches!(b.parse_uci(bad), Err(MoveError::Syntax(_))),
            "{bad}"
        );
    }
    let promo = B::from_fen("8/4P3/8/8/8/8/8/k6K w - - 0 1").unwrap();
    let m = promo.parse_uci("e7e8n").unwrap();
    assert_eq!(promo.to_uci(m), "e7e8n");
    assert_eq!(promo.to_san(m), "e8=N");
}

#[test]
fn san_disambiguation_checks_and_mates() {
    let b = B::from_fen("1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    assert_eq!(b.to_san(b.parse_uci("a1d1").unwrap()), "Rd1");
    let two_rooks = B::from_fen("1k6/8/8/8/8/8/8/R4RK1 w - - 0 1").unwrap();
    assert_eq!(
        two_rooks.to_san(two_rooks.parse_uci("a1d1").unwrap()),
        "Rad1"
    );
    assert_eq!(two_rooks.parse_san("Rad1!?"), two_rooks.parse_uci("a1d1"));
    assert_eq!(b.to_san(b.parse_uci("e1c1").unwrap()), "O-O-O");
    assert_eq!(b.to_san(b.parse_uci("a1a8").unwrap()), "Ra8+");
    let mate = B::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    assert_eq!(mate.to_san(mate.parse_uci("a1a8").unwrap()), "Ra8#");
    let files = B::from_fen("k7/8/8/N7/8/8/8/N6K w - - 0 1").unwrap();
    assert_eq!(files.to_san(files.parse_uci("a1b3").unwrap()), "N1b3");
    assert_eq!(files.parse_san("N1b3"), files.parse_uci("a1b3"));
    assert!(matches!(
        files.parse_san("Nb3"),
        Err(MoveError::Ambiguous(_))
    ));
    assert!(matches!(files.parse_san("Qd4"), Err(MoveError::Illegal(_))));
    assert!(matches!(files.parse_san("Z"), Err(MoveError::Syntax(_))));
    assert_eq!(b.parse_san("0-0"), b.parse_uci("e1g1"));
}

fn see(fen: &str, uci: &str) -> i32 {
    let b = B::from_fen(fen).unwrap();
    b.see(b.parse_uci(uci).unwrap())
}

#[test]
fn see_values_exchanges() {
    // A free pawn.
    assert_eq!(
        see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
        100
    );
    // Knight takes a pawn defended by a pawn... and by x-rayed queen behind a rook.
    assert_eq!(
        see(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "d3e5"
        ),
        100 - 320
    );
    // Rook takes a pawn defended by a rook: loses the exchange.
    assert_eq!(see("4k3/8/8/4p3/8/8/8/K3R3 w - - 0 1", "e1e5"), 100);
    assert_eq!(see("4k3/4r3/8/4p3/8/8/8/K3R3 w - - 0 1", "e1e5"), 100 - 500);
    // Doubled rooks win the pawn against one defender (x-ray through the first).
    assert_eq!(see("4k3/4r3/8/4p3/8/8/4R3/K3R3 w - - 0 1", "e2e5"), 100);
    // Quiet move into an attacked square loses the piece.
    assert_eq!(see("4k3/8/3p4/8/4N3/8/8/K7 w - - 0 1", "e4c5"), -320);
    // The king may not recapture into a defended square.
    assert_eq!(see("8/8/8/3k4/4p3/3P4/8/K3R3 w - - 0 1", "d3e4"), 100);
}

#[test]
fn every_compiled_backend_agrees_on_startpos() {
    // Every backend this CPU runs (pext only with BMI2), each on its own board.
    for kind in common::sliders() {
        let n = brokkr::with_slider!(kind, S => {
            brokkr::board::perft::perft::<Portable, S>(&Board::<S>::startpos(), 4)
        });
        assert_eq!(n, 197_281, "{kind}");
    }
}

#[test]
fn repetition_and_draws() {
    let mut pos = Position::<Magic>::from_fen(brokkr::board::STARTPOS).unwrap();
    for _ in 0..2 {
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = pos.board().parse_uci(uci).unwrap();
            pos.push(m);
        }
    }
    assert_eq!(pos.repetitions(), 2);
    assert!(pos.is_draw());
    let bare = B::from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").unwrap();
    assert!(bare.insufficient_material());
    let rook = B::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 0 1").unwrap();
    assert!(!rook.insufficient_material());
}

quickcheck! {
    /// SEE, pins and checks from OliThink's x-ray table must agree with the
    /// recomputed ones.
    fn xray_backend_agrees_on_see_pins_and_checks(start: usize, choices: Vec<u8>) -> bool {
        use brokkr::attacks::Kindergarten;
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            let k = Board::<Kindergarten>::from_fen(&b.to_fen()).unwrap();
            for m in b.stage_moves::<Portable>(Stage::Captures).iter() {
                ok &= b.see(m) == k.see(m);
            }
            // Pins and discovered checks also come from the x-rays there.
            ok &= b.blockers_for_king::<Portable>(b.side_to_move())
                == k.blockers_for_king::<Portable>(k.side_to_move());
            for m in b.legal_moves::<Portable>().iter() {
                ok &= k.gives_check::<Portable>(m) == b.gives_check::<Portable>(m);
            }
        });
        ok
    }
}

quickcheck! {
    /// Any text at all gets an answer from the parsers, never a panic.
    fn parsers_never_panic(text: String, start: usize) -> bool {
        let b = B::from_fen(STARTS[start % STARTS.len()]).unwrap();
        let _ = B::from_fen(&text);
        let _ = b.parse_uci(&text);
        let _ = b.parse_san(&text);
        let _ = brokkr::board::perft::parse_suite(&text);
        true
    }
}

#[test]
fn parsers_survive_multibyte_text() {
    let b = B::startpos();
    for text in [
        "€23",
        "e2€",
        "é2e4",
        "e2e4€",
        "Ñf3",
        "O-O-€",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN€ w KQkq - 0 1",
    ] {
        assert!(b.parse_uci(text).is_err(), "{text}");
        assert!(b.parse_san(text).is_err(), "{text}");
        assert!(B::from_fen(text).is_err(), "{text}");
    }
}

// ---------------------------------------------------------------------------
// The search API (issue 8): captures, key after a move, check info, SEE
// thresholds, stages, repetition, Chess960 and en-passant keys, limits.

/// Every piece kind by how SEE and non-pawn material value it.
fn non_pawn_by_recount(b: &B, color: Color) -> i32 {
    use brokkr::board::NON_PAWN_VALUES;
    use brokkr::types::PieceKind;
    PieceKind::ALL
        .into_iter()
        .map(|k| NON_PAWN_VALUES[k.index()] * b.pieces(color, k).count_ones() as i32)
        .sum()
}

quickcheck! {
    /// key_after must equal the key that make produces, for every legal move
    /// (castling, en passant, promotions and lost castling rights included).
    fn key_after_equals_the_key_after_make(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            for m in b.legal_moves::<Portable>().iter() {
                ok &= b.key_after::<brokkr::bits::Portable>(m) == b.with_move::<brokkr::bits::Portable>(m).key();
            }
        });
        ok
    }

    /// is_capture / captured_piece / moved_piece agree with the board before and
    /// after the move; non-pawn material matches a recount.
    fn capture_questions_agree_with_the_board(start: usize, choices: Vec<u8>) -> bool {
        use brokkr::types::{MoveKind, PieceKind};
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            for c in Color::BOTH {
                ok &= b.non_pawn_material::<Portable>(c) == non_pawn_by_recount(b, c);
            }
            for m in b.legal_moves::<Portable>().iter() {
                let after = b.with_move::<brokkr::bits::Portable>(m);
                let them = b.side_to_move().flip();
                let lost = b.color_bb(them).count_ones() - after.color_bb(them).count_ones();
                ok &= b.is_capture(m) == (lost == 1);
                ok &= b.captured_piece(m).is_some() == b.is_capture(m);
                if m.kind() == MoveKind::EnPassant {
                    ok &= b.captured_piece(m).map(|p| p.kind()) == Some(PieceKind::Pawn);
                }
                ok &= b.piece_on(m.from()) == Some(b.moved_piece(m));
                ok &= b.pinned() == b.blockers_for_king::<Portable>(b.side_to_move())
                    & b.color_bb(b.side_to_move());
            }
        });
        ok
    }

    /// see_ge(m, t) == (see(m) >= t) for thresholds around every interesting
    /// value, on every capture and quiet move of random positions.
    fn see_ge_agrees_with_see(start: usize, choices: Vec<u8>, extra: i32) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            for m in b.legal_moves::<Portable>().iter() {
                let v = b.see(m);
                for t in [v - 1, v, v + 1, 0, 1, -1, -100, 100, -500, 500, extra % 2000] {
                    ok &= b.see_ge(m, t) == (v >= t);
                }
            }
        });
        ok
    }

    /// Captures and queen promotions in `Captures`, under-promotions in `Quiets`,
    /// and together every move exactly once.
    fn stages_split_promotions(start: usize, choices: Vec<u8>) -> bool {
        use brokkr::types::PieceKind;
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            let all = b.legal_moves::<Portable>();
            let caps = b.stage_moves::<Portable>(Stage::Captures);
            let quiets = b.stage_moves::<Portable>(Stage::Quiets);
            let mut both: Vec<u16> = caps.iter().chain(quiets.iter()).map(|m| m.bits()).collect();
            let mut want: Vec<u16> = all.iter().map(|m| m.bits()).collect();
            both.sort_unstable();
            want.sort_unstable();
            ok &= both == want;
            ok &= caps.iter().all(|m| {
                b.is_capture(m) && m.promotion_kind().is_none_or(|k| k == PieceKind::Queen)
                    || m.promotion_kind() == Some(PieceKind::Queen)
            });
            ok &= quiets.iter().all(|m| {
                !b.is_capture(m) && m.promotion_kind().is_none()
                    || m.promotion_kind().is_some_and(|k| k != PieceKind::Queen)
            });
        });
        ok
    }

    /// The check info, computed once, answers gives_check_with for every move.
    fn check_info_answers_every_move(start: usize, choices: Vec<u8>) -> bool {
        let mut ok = true;
        random_game(start, &choices, |b, _| {
            let ci = b.check_info::<Portable>();
            for m in b.legal_moves::<Portable>().iter() {
                ok &= b.gives_check_with::<brokkr::bits::Portable>(m, &ci) == b.with_move::<brokkr::bits::Portable>(m).in_check();
            }
        });
        ok
    }
}

/// Castling and en passant give check exactly when making them does, in the
/// cases random games from `STARTS` rarely or never reach: Chess960 castling
/// where the king lands on its rook's square and the rook on the king's, and
/// en passant that opens a rank or a diagonal through the captured pawn.
#[test]
fn castling_and_en_passant_checks_agree_with_making_the_move() {
    use brokkr::types::MoveKind;
    for (fen, special_checks) in [
        // Queenside: the rook lands on d1, where the king stood, and checks up
        // the d-file; kingside the king would land on the rook's g1, attacked.
        ("1r1k2r1/8/8/8/8/8/8/1R1K2R1 w GBgb - 0 1", 1),
        // exd6 opens the fifth rank for the rook on a5.
        ("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", 1),
        // exd6 opens the diagonal b3-f7 through d5.
        ("8/5k2/8/3pP3/8/1B6/8/4K3 w - d6 0 1", 1),
        // Castling kingside with the king on g1 already, a check along the
        // f-file by the rook; en passant that checks with the pawn itself.
        ("5k2/8/8/8/8/8/8/4R1KR w H - 0 1", 1),
        ("8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 1", 1),
    ] {
        let b = B::from_fen(fen).unwrap();
        let ci = b.check_info::<Portable>();
        let mut found = 0;
        for m in b.legal_moves::<Portable>().iter() {
            let gives = b.gives_check_with::<Portable>(m, &ci);
            assert_eq!(gives, b.with_move::<Portable>(m).in_check(), "{fen}: {m:?}");
            found +=
                usize::from(gives && matches!(m.kind(), MoveKind::Castling | MoveKind::EnPassant));
        }
        assert_eq!(found, special_checks, "{fen}");
    }
}

#[test]
fn see_ge_on_known_exchanges() {
    let b = B::from_fen("4k3/4r3/8/4p3/8/8/8/K3R3 w - - 0 1").unwrap();
    let m = b.parse_uci("e1e5").unwrap();
    assert_eq!(b.see(m), -400);
    assert!(b.see_ge(m, -400));
    assert!(!b.see_ge(m, -399));
    // The king recaptures only an undefended square: Rxe5 Rxe5 Kxe5 is not on
    // when a second black rook x-rays through the first.
    let b = B::from_fen("4r1k1/4r3/8/4p3/3K4/8/8/4R3 w - - 0 1").unwrap();
    let m = b.parse_uci("e1e5").unwrap();
    assert_eq!(b.see(m), 100 - 500);
    assert!(b.see_ge(m, -400) && !b.see_ge(m, -399));
}

#[test]
fn a_null_move_breaks_repetition() {
    // Nf3, null, Ng1, null: the pieces and the side to move are back, but only by
    // passing; that is not a repetition.
    let mut pos = Position::<Magic>::from_fen(brokkr::board::STARTPOS).unwrap();
    pos.push(pos.board().parse_uci("g1f3").unwrap());
    pos.push_null();
    pos.push(pos.board().parse_uci("f3g1").unwrap());
    pos.push_null();
    assert_eq!(
        pos.board().key(),
        B::startpos().key(),
        "same pieces, same side"
    );
    assert_eq!(pos.repetitions(), 0);
    assert!(!pos.is_repetition(100));
    assert!(!pos.is_threefold());
    // Without the null moves the same manoeuvre repeats.
    let mut pos = Position::<Magic>::from_fen(brokkr::board::STARTPOS).unwrap();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.push(pos.board().parse_uci(uci).unwrap());
    }
    assert_eq!(pos.repetitions(), 1);
    assert!(pos.is_repetition(5), "once inside the tree");
    assert!(
        !pos.is_repetition(4),
        "the root itself is not inside the tree"
    );
    assert!(!pos.is_threefold());
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.push(pos.board().parse_uci(uci).unwrap());
    }
    assert!(pos.is_threefold());
    assert!(
        pos.is_repetition(1),
        "twice in all is a draw wherever the root is"
    );
}

#[test]
fn repetition_stops_at_an_irreversible_move() {
    let mut pos = Position::<Magic>::from_fen(brokkr::board::STARTPOS).unwrap();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5"] {
        pos.push(pos.board().parse_uci(uci).unwrap());
    }
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.push(pos.board().parse_uci(uci).unwrap());
    }
    assert_eq!(
        pos.repetitions(),
        1,
        "the positions before e4 cannot repeat"
    );
}

#[test]
fn mate_on_the_hundredth_ply_beats_the_fifty_move_rule() {
    // Black is mated (back-rank) with the clock at 100.
    let mate = Position::<Magic>::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80").unwrap();
    assert!(mate.board().in_check());
    assert!(!mate.is_fifty_move_draw::<Portable>());
    assert!(!mate.is_draw());
    let quiet = Position::<Magic>::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 b - - 100 80").unwrap();
    assert!(quiet.is_fifty_move_draw::<Portable>());
    assert_eq!(quiet.board().halfmove_clock(), 100);
}

#[test]
fn chess960_castling_rooks_are_in_the_key() {
    // Same pieces, same rights, different castling rook (g1 or h1 for K-side).
    let g = B::from_fen("4k3/8/8/8/8/8/8/4K1RR w G - 0 1").unwrap();
    let h = B::from_fen("4k3/8/8/8/8/8/8/4K1RR w H - 0 1").unwrap();
    assert_eq!(g.occupied(), h.occupied());
    assert_eq!(g.castling_rights(), h.castling_rights());
    assert_ne!(g.key(), h.key());
    assert_eq!(g.key(), g.recompute_keys().0);
    assert_eq!(h.key(), h.recompute_keys().0);
    // Losing the right makes them equal again.
    let g2 = g.with_move::<brokkr::bits::Portable>(g.parse_uci("e1e2").unwrap());
    let h2 = h.with_move::<brokkr::bits::Portable>(h.parse_uci("e1e2").unwrap());
    assert_eq!(g2.key(), h2.key());
}

#[test]
fn en_passant_key_only_when_the_capture_is_legal() {
    // After d7d5 the e5 pawn stands next to it but is pinned on the e-file by the
    // rook on e8: no legal capture, so no key for the en-passant square (FEN
    // still records the square).
    let b = B::from_fen("4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1").unwrap();
    let after = b.with_move::<brokkr::bits::Portable>(b.parse_uci("d7d5").unwrap());
    assert_eq!(after.ep_square(), Square::parse("d6"));
    assert_eq!(after.ep_capture_square(), None);
    assert!(after
        .legal_moves::<Portable>()
        .iter()
        .all(|m| m.kind() != brokkr::types::MoveKind::EnPassant));
    let same = B::from_fen("4r1k1/8/8/3pP3/8/8/8/4K3 w - - 0 2").unwrap();
    assert_eq!(after.key(), same.key());
    assert_eq!(
        b.key_after::<brokkr::bits::Portable>(b.parse_uci("d7d5").unwrap()),
        after.key()
    );
    // The FEN parser agrees.
    let fen = B::from_fen("4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    assert_eq!(fen, after);
    assert_eq!(fen.key(), same.key());
    // Unpinned, the square and its key are kept.
    let free = B::from_fen("6k1/3p4/8/4P3/8/8/8/4K3 b - - 0 1").unwrap();
    let after = free.with_move::<brokkr::bits::Portable>(free.parse_uci("d7d5").unwrap());
    assert_eq!(after.ep_capture_square(), Square::parse("d6"));
    assert_ne!(
        after.key(),
        B::from_fen("6k1/8/8/3pP3/8/8/8/4K3 w - - 0 2")
            .unwrap()
            .key()
    );
}

#[test]
fn impossible_material_is_refused() {
    // 258 legal moves: more than a move list holds.
    let err = fen_err("QQQQQQQQ/Q6Q/Q6Q/Q6Q/Q2Q3Q/Q5QQ/Q3Q1nn/KQQ2Qnk w - - 0 1");
    assert!(matches!(err, FenError::TooManyPieces { .. }), "{err}");
    assert!(err.to_string().contains("white has"), "{err}");
    let err = fen_err("k7/pppppppp/p7/8/8/8/8/K7 w - - 0 1");
    assert!(err.to_string().contains("9 pawns"), "{err}");
    // More promoted pieces than pawns missing is what a board editor sets up,
    // and python-chess's `is_valid` takes it: so does brokkr.
    assert!(B::from_fen("k7/8/8/8/8/2QQ4/PPPPPPPP/K7 w - - 0 1").is_ok());
    assert!(B::from_fen("4k3/8/8/8/8/PPPPPPPP/8/QQQ1K3 w - - 0 1").is_ok());
}

/// Sixteen pieces a side, fifteen of them queens, spread to move as much as
/// they can: the move list holds every move (the bound `MAX_MOVES` documents).
#[test]
fn the_most_mobile_material_fits_the_move_list() {
    for fen in [
        "Q3Q1K1/2Q4Q/Q4Q1Q/2Q5/6k1/1Q1Q4/Q6Q/2Q1Q2Q w - - 0 1",
        // Eight pawns promoting, each on four squares' worth of pieces.
        "1r1r1r1r/PPPPPPPP/8/8/8/3QQ3/8/K6k w - - 0 1",
    ] {
        let b = B::from_fen(fen).unwrap();
        let n = b.legal_moves::<brokkr::bits::Portable>().len();
        assert!(n > 80 && n < brokkr::moves::MAX_MOVES, "{n} moves in {fen}");
    }
}

#[test]
#[should_panic(expected = "MoveList overflow")]
fn a_full_move_list_is_loud() {
    let mut list = brokkr::board::MoveList::new();
    for _ in 0..=brokkr::moves::MAX_MOVES {
        list.push(Move::NULL);
    }
}

#[test]
fn counters_at_their_limits() {
    let b = B::from_fen("k7/8/8/8/8/8/8/K7 w - - 150 65535").unwrap();
    assert_eq!(b.halfmove_clock(), 150);
    let err = fen_err("k7/8/8/8/8/8/8/K7 w - - 151 1");
    assert!(err.to_string().contains("halfmove clock 151"), "{err}");
    let err = fen_err("k7/8/8/8/8/8/8/K7 w - - 99999999999999999999999 1");
    assert!(err.to_string().contains("too large"), "{err}");
    // A huge full-move number is capped, not refused.
    let big = B::from_fen("k7/8/8/8/8/8/8/K7 b - - 0 99999999999999999999").unwrap();
    assert_eq!(big.fullmove_number(), 65535);
    // Make saturates; unmake restores exactly.
    let mut c = big;
    let m = c.parse_uci("a8b8").unwrap();
    let undo = c.make_undoable::<brokkr::bits::Portable>(m);
    assert_eq!(c.fullmove_number(), 65535);
    c.unmake(m, &undo);
    assert_eq!(c, big);
    // The halfmove clock saturates too (reachable only with a long search line).
    let mut pos = Position::<Magic>::new(b);
    for _ in 0..200 {
        let m = pos.board().legal_moves::<Portable>().as_slice()[0];
        pos.push(m);
    }
    assert!(pos.board().halfmove_clock() >= 150);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let b = B::from_fen("\u{feff}rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(b.unwrap(), B::startpos());
    // Inside the placement it is named, not shown as an invisible letter.
    let err = fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB\u{feff}NR w KQkq - 0 1");
    assert!(err.to_string().contains("byte-order mark"), "{err}");
}

#[test]
fn squares_past_the_board_are_safe_on_every_backend() {
    fn check<S: Slider>() {
        for sq in 64..200 {
            for occ in [0u64, 0x0000_0018_2400_0000, !0] {
                assert_eq!(S::rook_any(sq, occ), S::rook_any(sq & 63, occ));
                assert_eq!(S::bishop_any(sq, occ), S::bishop_any(sq & 63, occ));
                assert_eq!(S::rook_xray(sq, occ), S::rook_xray(sq & 63, occ));
            }
        }
        assert_eq!(S::rook_any(usize::MAX, 0), S::rook_any(63, 0));
    }
    for kind in common::sliders() {
        brokkr::with_slider!(kind, S => check::<S>());
    }
    assert_eq!(Square::try_new(64), None);
    assert_eq!(Square::try_new(63).map(|s| s.index()), Some(63));
    // The board's square API cannot be handed a square past h8.
    let b = B::startpos();
    assert!(!b.is_attacked(Square::parse("h8").unwrap(), Color::White));
    assert_eq!(b.castling_rook(4), None);
}
