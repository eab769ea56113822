#!/usr/bin/python3
"""Random Gomoku games near the centre, each in a random turn or mirror image of the board, for the
benchmark of `tree --symmetric` and `search --symmetric` (README, "Benchmarks"): up to 30 plies on
the points within four of h8, a game stopped at its first five.

With --mirrored-copies every game is followed by its mirror image left to right (the same game
published turned: `gounki import` skips each copy as a duplicate), for the import benchmark.

Run: /usr/bin/python3 bench/turned_games.py GAMES OUT.gpn [--mirrored-copies]
"""
import random, sys
random.seed(5)
N = int(sys.argv[1]); out = open(sys.argv[2], "w"); copies = "--mirrored-copies" in sys.argv[3:]
files = "abcdefghijklmno"
def five(board, p, c):
    f, r = p
    for df, dr in ((1,0),(0,1),(1,1),(1,-1)):
        n = 1
        for s in (1,-1):
            k = 1
            while board.get((f+s*df*k, r+s*dr*k)) == c: n += 1; k += 1
        if n >= 5: return True
    return False
# The board's eight symmetries about the centre, as core/stones/symmetry.hpp numbers them.
sym = [lambda f,r:(f,r), lambda f,r:(-r,f), lambda f,r:(-f,-r), lambda f,r:(r,-f), lambda f,r:(-f,r), lambda f,r:(f,-r), lambda f,r:(r,f), lambda f,r:(-r,-f)]
for g in range(N):
    board = {}; moves = []
    t = random.choice(sym)
    for ply in range(30):
        c = ply % 2
        if ply == 0: p = (0, 0)
        else:
            while True:
                p = (random.randint(-4, 4), random.randint(-4, 4))
                if p not in board: break
        board[p] = c
        moves.append(p)
        if five(board, p, c):
            result = "0-1" if c == 0 else "1-0" # Black moves first; 0-1 is a win of Black's
            break
    else:
        result = "*"
    for image in ([t, lambda f, r: (-t(f, r)[0], t(f, r)[1])] if copies else [t]):
        text = " ".join(files[7 + image(*m)[0]] + str(8 + image(*m)[1]) for m in moves)
        out.write('[Game "Gomoku"]\n[Result "%s"]\n\n%s %s\n\n' % (result, text, result))
