"""GNU Go's dead stones for the marked-up games, measured the same way as
sgfaudit's estimator: GTP `loadsgf` then `final_status_list dead` per game.
Input: the JSON list of {file, game, size, black, white, counted_re,
black_rule7, white_rule7} (markup dead stones as written and as completed by
Japanese rule 7, SGF points) that `GNUGO_LIST=FILE cargo run --release --example
estimate_accuracy -- DIR` writes. Prints agreement (over all games, and over
those whose RE is a count) and time per game; VERBOSE=1 names the games that
disagree."""
import os
import json, subprocess, sys, time

COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

def to_sgf(v, size):
    col = COLS.index(v[0].upper())
    row = size - int(v[1:])
    return chr(97 + col) + chr(97 + row)

def main():
    games = json.load(open(sys.argv[1]))
    agree = 0
    re_games = re_agree = re_agree_rule7 = 0
    spent = 0.0
    slowest = 0.0
    for g in games:
        if g["game"] != 0:
            continue
        p = subprocess.Popen(["gnugo", "--mode", "gtp"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        def cmd(c):
            p.stdin.write(c + "\n"); p.stdin.flush()
            out = []
            while True:
                line = p.stdout.readline()
                if line.strip() == "" and out:
                    break
                if line.strip():
                    out.append(line.strip())
            return " ".join(out)
        t = time.perf_counter()
        r = cmd("loadsgf " + g["file"])
        dead = cmd("final_status_list dead") if r.startswith("=") else "?"
        dt = time.perf_counter() - t
        cmd("quit")
        p.wait()
        spent += dt
        slowest = max(slowest, dt)
        pts = dead.lstrip("=").split()
        size = g["size"]
        got = set(to_sgf(v, size) for v in pts if v and v[0].isalpha())
        want = set(g["black"]) | set(g["white"])
        counted = g.get("counted_re", False)
        re_games += counted
        completed = set(g.get("black_rule7", [])) | set(g.get("white_rule7", []))
        re_agree_rule7 += counted and got == completed
        if got == want:
            agree += 1
            re_agree += counted
        elif os.environ.get("VERBOSE"):
            print(f"{g['file']}: markup {len(want)} dead, GNU Go {len(got)}"
                  + ("" if counted else " (RE not a count)"))
    n = sum(1 for g in games if g["game"] == 0)
    print(f"games with a counted RE: {re_agree} of {re_games} agree ({100*re_agree/max(re_games,1):.1f}%)")
    print(f"games with a counted RE, markup completed by rule 7: {re_agree_rule7} of {re_games} agree "
          f"({100*re_agree_rule7/max(re_games,1):.1f}%)")
    print(f"gnugo final_status_list dead vs markup: {agree} of {n} games agree ({100*agree/n:.1f}%), "
          f"{1000*spent/n:.0f} ms per game (slowest {slowest:.1f} s)")

main()
