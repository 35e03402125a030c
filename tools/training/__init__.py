"""The player's data files made on this computer: the evaluation's weights, the opening book, the puzzles.

    training_data.py       self-play positions labelled by search (make training-data; its workers,
                           training_worker.py and training_exact_worker.py, run under MicroPython)
    training_boards.py     bitboards in numpy arrays: symmetries, legal-move counts, pattern indices
    training_fit.py        a pattern set's weights fitted to that data (make training-fit, make evaluation;
                           the sets are in patterns/)
    train_evaluation.py    the edge evaluation of the 6x6 and 10x10 boards, fitted from self-play games
    evaluation_file.py     the weight file format player/evaluation.py reads
    build_book.py          the opening book (make book; book_worker.py searches, book_openings.txt the
                           named openings it covers)
    build_puzzles.py       the puzzles (puzzle_worker.py finds them in self-play games)
"""
