#!/usr/bin/env python3
"""brokkr driven by a real client: python-chess, over UCI and over xboard.

    python3 tests/python/client.py target/release/brokkr [--protocol uci|xboard|both] [--no-clock]

For each protocol the engine is started with no arguments (so the protocol is
picked from python-chess's first command, as a GUI would) and it must:

1. play a game against itself at a fixed amount of work a move (UCI: NODES
   nodes; xboard, which has no node limit: depth DEPTH) to the end or 400 plies,
   every move legal;
2. analyse a position: with MultiPV 3 over UCI (three distinct, legal lines);
   xboard has no MultiPV, so a plain analysis there;
3. take options (UCI: Hash, Threads, Move Overhead, BitPath, Slider, Clear Hash;
   xboard: memory, cores and brokkr's own options) without a complaint;
4. play a Chess960 game (python-chess sets UCI_Chess960 / `variant fischerandom`),
   and mate by Chess960 castling (king takes rook) from two positions,
   at a fixed amount of work too;
5. unless --no-clock: play a game at 1s+0.01s, every move legal, with the clocks
   kept here as a GUI keeps them (a clock below zero ends the game, as a GUI
   flags). How low the clocks went, or a time loss, is REPORTED, never checked: they include python-chess's own work and the scheduling of a shared
   machine, so a time loss here says as much about the machine as about the
   engine. The gate for time management is the TimeBudget unit tests.

Every failed check is printed as `FAIL: ...`; a check that waits on a known engine
bug is printed as `WAITING ON FIX: ...` and does not count until it passes (then it
fails, so the mark gets removed); what is measured but not checked is printed as
`REPORT: ...`. The last line says `N passed, N failed`, and the exit code is 0 only
if nothing failed. Run by tests/python_client.rs.
"""

import argparse
import logging
import sys
import time

import chess
import chess.engine

INCREMENT = 0.01
BASE = 1.0
MAX_PLIES = 400
# The work a move in the games that check legality: fixed, so a loaded machine
# makes them slower, never different.
NODES = 3000
DEPTH = 4
ANALYSIS_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# Chess960 start positions (Scharnagl numbers): 0 is BBQNNRKR, 959 is RKRNNQBB;
# both keep king and rooks apart from the standard squares.
CHESS960_POSITION = 0


class Transcript(logging.Handler):
    """Keeps what python-chess logs: the engine's lines and its warnings."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.received = []
        self.warnings = []

    def emit(self, record):
        msg = record.getMessage()
        if record.levelno >= logging.WARNING:
            self.warnings.append(msg)
        elif ">> " not in msg and "<< " in msg:
            self.received.append(msg.split("<< ", 1)[1])


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = []
        self.waited = []
        self.reports = []

    def check(self, ok, what):
        if ok:
            self.passed += 1
            print(f"ok: {what}", flush=True)
        else:
            self.failed.append(what)
            print(f"FAIL: {what}", flush=True)
        return ok

    def report(self, what):
        """A measurement that is printed, never checked."""
        self.reports.append(what)
        print(f"REPORT: {what}", flush=True)

    def waiting(self, ok, what, fix):
        """A check that fails until a known engine bug is fixed (`fix` says which).

        Its failure is reported but does not fail the run; once it passes it fails
        the run, so that the mark is removed and the check becomes a plain one."""
        if ok:
            self.failed.append(f"{what} now passes: make it a plain check (was waiting on: {fix})")
            print(f"FAIL: {what} now passes; remove its waiting mark", flush=True)
        else:
            self.waited.append(f"{what} (waiting on: {fix})")
            print(f"WAITING ON FIX: {what} ({fix})", flush=True)


def fixed_limit(protocol):
    """The limit of a legality game's moves: nodes over UCI, depth over xboard."""
    return chess.engine.Limit(nodes=NODES) if protocol == "uci" else chess.engine.Limit(depth=DEPTH)


def play_game(engine, board, name, checks, limit=None):
    """The engine plays both sides of `board`, each move at `limit`, or at
    BASE+INCREMENT with the clocks kept here when `limit` is None (then the
    clocks are reported, not checked)."""
    clocks = {chess.WHITE: BASE, chess.BLACK: BASE}
    illegal = 0
    flagged = None
    lowest = BASE
    slowest = 0.0
    castled = False
    game = object()
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        move_limit = limit or chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=INCREMENT,
            black_inc=INCREMENT,
        )
        side = board.turn
        start = time.monotonic()
        try:
            result = engine.play(board, move_limit, game=game)
        except chess.engine.EngineError as e:
            illegal += 1
            print(f"  engine error at ply {board.ply()} ({board.fen()}): {e}", flush=True)
            break
        spent = time.monotonic() - start
        slowest = max(slowest, spent)
        move = result.move
        if move is None or move not in board.legal_moves:
            illegal += 1
            print(f"  illegal move {move} at ply {board.ply()} in {board.fen()}", flush=True)
            break
        if limit is None:
            clocks[side] -= spent
            lowest = min(lowest, clocks[side])
            if clocks[side] < 0:
                # A GUI would flag here; going on would send negative clocks.
                flagged = f"{'white' if side else 'black'} at ply {board.ply()} ({clocks[side] * 1000:.0f} ms)"
                break
            clocks[side] += INCREMENT
        castled |= board.is_castling(move)
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    if flagged:
        ending = f"time loss by {flagged}"
    else:
        ending = outcome.termination.name if outcome else f"stopped at {MAX_PLIES} plies"
    print(
        f"  {name}: {board.ply()} plies, {board.result(claim_draw=True)} ({ending}), "
        f"castled: {castled}, slowest move {slowest:.3f}s",
        flush=True,
    )
    print(f"  moves: {chess.Board(board.root().fen(), chess960=board.chess960).variation_san(board.move_stack)}")
    checks.check(illegal == 0, f"{name}: no illegal move or engine error")
    if limit is None:
        checks.report(
            f"{name} at {BASE:g}s+{INCREMENT:g}s: {board.ply()} plies, "
            + (f"lost on time, {flagged}" if flagged else f"lowest clock {lowest * 1000:.0f} ms")
        )
    else:
        checks.check(
            board.is_game_over(claim_draw=True) or board.ply() >= 40,
            f"{name}: game ended by the rules or lasted 40 plies",
        )


# Chess960 positions whose only mate in one is castling with the king on b1 (b8)
# taking its rook on a1 (a8): O-O-O# puts the rook on d1 (d8) against a king boxed
# in by its own rooks and pawns. A Chess960 game may never castle; these must.
CASTLING_MATES = [
    "2rkr3/2p1p3/8/8/8/8/PPP5/RK6 w A - 0 1",
    "rk6/ppp5/8/8/8/8/2P1P3/2RKR3 b a - 0 1",
]


def castle_to_mate(engine, protocol, checks):
    """The engine finds the mate by Chess960 castling, sent in its protocol's
    Chess960 notation, which python-chess reads back as that castling move."""
    for fen in CASTLING_MATES:
        board = chess.Board(fen, chess960=True)
        result = engine.play(board, fixed_limit(protocol), game=object())
        move = result.move
        castles = move is not None and move in board.legal_moves and board.is_castling(move)
        mates = False
        if castles:
            board.push(move)
            mates = board.is_checkmate()
        checks.check(castles and mates, f"{protocol}: mates by Chess960 castling from {fen} (played {move})")


def pv_is_legal(board, pv):
    b = board.copy()
    for m in pv:
        if m not in b.legal_moves:
            return False
        b.push(m)
    return True


def analyse_uci(engine, checks):
    board = chess.Board(ANALYSIS_FEN)
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    checks.check(len(infos) == 3, f"uci analyse: MultiPV 3 gives 3 lines (got {len(infos)})")
    firsts = set()
    for n, info in enumerate(infos, 1):
        pv = info.get("pv", [])
        print(f"  multipv {info.get('multipv')} depth {info.get('depth')} score {info.get('score')} pv {board.variation_san(pv) if pv_is_legal(board, pv) else pv}")
        checks.check(info.get("multipv") == n, f"uci analyse: line {n} is multipv {n}")
        checks.check(info.get("depth", 0) >= 8, f"uci analyse: line {n} reached depth 8")
        checks.check("score" in info, f"uci analyse: line {n} has a score")
        checks.check(bool(pv) and pv_is_legal(board, pv), f"uci analyse: line {n} has a legal pv")
        if pv:
            firsts.add(pv[0])
    checks.check(len(firsts) == 3, "uci analyse: the three lines start with different moves")


def analyse_xboard(engine, checks):
    board = chess.Board(ANALYSIS_FEN)
    info = engine.analyse(board, chess.engine.Limit(depth=8))
    pv = info.get("pv", [])
    print(f"  depth {info.get('depth')} score {info.get('score')} pv {pv}")
    checks.check(info.get("depth", 0) >= 8, "xboard analyse: reached depth 8")
    checks.check("score" in info, "xboard analyse: has a score")
    checks.check(bool(pv) and pv_is_legal(board, pv), "xboard analyse: has a legal pv")


def other_choice(option):
    """A value of a combo option other than its default (or the default if alone)."""
    others = [v for v in option.var if v != option.default]
    return others[0] if others else option.default


def configure_uci(engine, transcript, checks):
    opts = engine.options
    for name in ["Hash", "Threads", "Clear Hash", "Ponder", "MultiPV", "Move Overhead", "UCI_Chess960", "BitPath", "Slider"]:
        checks.check(name in opts, f"uci: option {name} is declared")
    config = {"Hash": 32, "Threads": 1, "Move Overhead": 30, "Clear Hash": None}
    for combo in ["BitPath", "Slider"]:
        if combo in opts:
            config[combo] = other_choice(opts[combo])
    print(f"  configure {config}")
    seen = len(transcript.received)
    engine.configure(config)
    engine.ping()
    complaints = [line for line in transcript.received[seen:] if line.startswith("info string")]
    checks.check(not complaints, f"uci configure: no complaint ({complaints})")


# Over xboard, brokkr names these options without spaces: python-chess takes an
# option's name to be its first word.
SPACED_XBOARD_OPTIONS = ["Move_Overhead", "Clear_Hash"]


def configure_xboard(engine, transcript, checks):
    opts = engine.options
    for name in ["memory", "cores", "MultiPV", "BitPath", "Slider"]:
        checks.check(name in opts, f"xboard: option {name} is declared")
    checks.check(
        all(name in opts for name in SPACED_XBOARD_OPTIONS),
        f"xboard: options {SPACED_XBOARD_OPTIONS} can be set through python-chess",
    )
    config = {"memory": 32, "cores": 1}  # MultiPV is managed by python-chess itself
    for name in SPACED_XBOARD_OPTIONS:
        if name in opts:
            config[name] = 30 if opts[name].type == "spin" else None
    for combo in ["BitPath", "Slider"]:
        if combo in opts:
            config[combo] = other_choice(opts[combo])
    print(f"  configure {config}")
    seen = len(transcript.received)
    try:
        engine.configure(config)
        engine.ping()  # an `Error (...)` line before the pong raises
        complaints = [line for line in transcript.received[seen:] if line.startswith(("Error", "Illegal"))]
    except chess.engine.EngineError as e:
        complaints = [str(e)]
    checks.check(not complaints, f"xboard configure: no complaint ({complaints})")


def run(protocol, path, transcript, checks, clock):
    print(f"== {protocol}: {path}", flush=True)
    popen = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    seen_warnings = len(transcript.warnings)
    engine = popen([path], timeout=60)
    try:
        print(f"  id: {engine.id}", flush=True)
        checks.check(engine.id.get("name", "").startswith("brokkr"), f"{protocol}: engine names itself brokkr")
        play_game(engine, chess.Board(), f"{protocol} game", checks, fixed_limit(protocol))
        if protocol == "uci":
            analyse_uci(engine, checks)
            configure_uci(engine, transcript, checks)
        else:
            analyse_xboard(engine, checks)
            configure_xboard(engine, transcript, checks)
        board = chess.Board.from_chess960_pos(CHESS960_POSITION)
        board.chess960 = True
        print(f"  chess960 start: {board.fen()}", flush=True)
        play_game(engine, board, f"{protocol} chess960 game", checks, fixed_limit(protocol))
        castle_to_mate(engine, protocol, checks)
        if clock:
            play_game(engine, chess.Board(), f"{protocol} clock game", checks)
    finally:
        engine.quit()
    # python-chess logs engine lines it did not expect: an error line or a move it
    # could not parse shows up here even outside a command.
    bad = [w for w in transcript.warnings[seen_warnings:] if "Error" in w or "llegal" in w or "xception" in w]
    for w in transcript.warnings[seen_warnings:]:
        print(f"  python-chess warning: {w}")
    checks.check(not bad, f"{protocol}: python-chess logged no error ({len(bad)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--protocol", choices=["uci", "xboard", "both"], default="both")
    parser.add_argument("--no-clock", action="store_true", help="skip the games on a clock")
    args = parser.parse_args()
    print(f"python-chess {chess.__version__}")
    transcript = Transcript()
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.addHandler(transcript)
    checks = Checks()
    for protocol in ["uci", "xboard"] if args.protocol == "both" else [args.protocol]:
        try:
            run(protocol, args.engine, transcript, checks, not args.no_clock)
        except Exception as e:  # a crash, a timeout or a protocol error ends this protocol's run
            checks.check(False, f"{protocol}: ran without an exception ({type(e).__name__}: {e})")
    for w in checks.waited:
        print(f"  waiting on a fix: {w}")
    for r in checks.reports:
        print(f"  reported: {r}")
    for f in checks.failed:
        print(f"  failed: {f}")
    print(f"{checks.passed} passed, {len(checks.failed)} failed")
    return 0 if not checks.failed else 1


if __name__ == "__main__":
    sys.exit(main())
