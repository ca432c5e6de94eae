#!/usr/bin/env python3
"""Splits the 2026-11 corpus by repository, at random and before any labelling, into a development half and a test half.

Usage: split.py CANDIDATES.tsv... > REPOSITORIES.tsv

Each input row: repo, commit, (a local folder, dropped), kind, language, raw sites, has BGTaskScheduler, description.
The split is stratified by language (Swift, or Objective-C and mixed) and by whether the repository registers
BGTaskScheduler launch handlers, so that both halves hold each kind; within each stratum the order is shuffled with a
seed drawn from the operating system, which the output records, and the halves alternate. Written once, on
2026-11-28, before any site was labelled; never rerun on the same corpus.
"""

import os
import random
import sys

rows = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 8 or not len(fields[1]) == 40:
                continue  # a header or a malformed line
            repo, commit, _, kind, language, sites, bgtask, description = fields[:8]
            rows.setdefault(repo.lower(), (repo, commit, kind, language, sites, bgtask, description))

seed = int.from_bytes(os.urandom(4), "big")
generator = random.Random(seed)
strata = {}
for row in sorted(rows.values()):
    key = ("swift" if row[3] == "swift" else "objc-or-mixed", row[5])
    strata.setdefault(key, []).append(row)

print(f"# The 2026-11 corpus, split by split.py with seed {seed} on 2026-11-28, before any labelling.")
print("# half\trepo\tcommit\tkind\tlanguage\traw sites (scout's count)\tBGTaskScheduler\tdescription")
turn = generator.randrange(2)
for key in sorted(strata):
    members = strata[key]
    generator.shuffle(members)
    for row in members:
        half = "dev" if turn == 0 else "test"
        turn = 1 - turn
        print("\t".join((half,) + row))
