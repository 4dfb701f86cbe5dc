"""GNU Go's dead stones for the marked-up games, measured the same way as
sgfaudit's estimator: GTP `loadsgf` then `final_status_list dead` per game.
Input: a JSON list of {file, game, size, black, white} (markup dead stones, SGF
points) as written by `sgfaudit check --format jsonl --dead-stones markup`.
Prints agreement and time per game."""
import json, subprocess, sys, time

COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

def to_sgf(v, size):
    col = COLS.index(v[0].upper())
    row = size - int(v[1:])
    return chr(97 + col) + chr(97 + row)

def main():
    games = json.load(open(sys.argv[1]))
    agree = 0
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
        if got == want:
            agree += 1
    n = sum(1 for g in games if g["game"] == 0)
    print(f"gnugo final_status_list dead vs markup: {agree} of {n} games agree ({100*agree/n:.1f}%), "
          f"{1000*spent/n:.0f} ms per game (slowest {slowest:.1f} s)")

main()
