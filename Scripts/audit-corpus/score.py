#!/usr/bin/env python3
"""Scores `bgtask audit` on a corpus of real, public iOS code.

The corpus is never committed: only `index.tsv` beside this script is. It names repositories,
commits, and the call sites and findings a person labelled by reading the code. This script
brings each repository at each commit into a folder outside the project, runs the audit there,
and prints

  * recall: of the labelled risky sites, how many get a finding of the expected rule, and
  * precision: of the findings on whole repositories, how many were judged true.

Usage (CI does not run it: it needs the network or local mirrors):

  swift build -c release --package-path Tools --product bgtask-audit
  Scripts/audit-corpus/score.py --bgtask Tools/.build/release/bgtask-audit --work /tmp/audit-corpus
  Scripts/audit-corpus/score.py ... --mirrors DIR   # bare mirrors at DIR/OWNER+NAME/repo
  Scripts/audit-corpus/score.py ... --verbose       # every miss, every false or unjudged finding
  Scripts/audit-corpus/score.py ... --audit-arg=--engine --audit-arg=model --audit-arg=--level --audit-arg=suspected
  Scripts/audit-corpus/score.py ... --index Scripts/audit-corpus/test-set   # the frozen test set

index.tsv rows (tab-separated, `#` starts a comment line):

  site     REPO COMMIT PATH LINE LABELS REASON   a labelled call site; LABELS: BT003,BT007 …, `safe`, or
                                                  `test` (test code: no defect finding expected)
  whole    REPO COMMIT -    -    -      REASON   a repository audited whole at COMMIT
  finding  REPO COMMIT PATH LINE VERDICT REASON  a judged finding of a whole audit; VERDICT: true:BTnnn,
                                                  false:BTnnn or debatable:BTnnn (left out of precision)

A site counts as found when a finding of each expected rule is in the same file and either in
the same function, within 3 lines, or (for findings that point at another statement, such as the
second end of BT007) naming the variable the site's begin is assigned to, or with an evidence chain that
starts at the site (`line 37: registers a launch handler; line 53: this guard leaves …`). BT001 (every raw call) and BT002 (unnamed) are not scored at
sites; they are scored in the whole-repository precision like every other rule.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NEAR = 3


def read_index(path):
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 7:
                sys.exit(f"{path}:{number}: expected 7 tab-separated fields, got {len(fields)}")
            kind, repo, commit, file, line_text, labels, reason = fields
            if kind not in ("site", "whole", "finding"):
                sys.exit(f"{path}:{number}: unknown row kind {kind!r}")
            rows.append(
                {
                    "kind": kind,
                    "repo": repo,
                    "commit": commit,
                    "path": file,
                    "line": int(line_text) if line_text.isdigit() else None,
                    "labels": labels,
                    "reason": reason,
                    "where": f"index.tsv:{number}",
                }
            )
    return rows


def checkout(repo, commit, work, mirrors):
    """A folder holding REPO's tree at COMMIT (made once, then reused)."""
    folder = os.path.join(work, repo.replace("/", "+") + "@" + commit[:12])
    if os.path.isdir(folder):
        return folder
    git_dir = None
    if mirrors:
        candidate = os.path.join(mirrors, repo.replace("/", "+"), "repo")
        if os.path.isdir(candidate):
            # Some snapshots are clones with a work tree: their git directory is `repo/.git`.
            git_dir = os.path.join(candidate, ".git") if os.path.isdir(os.path.join(candidate, ".git")) else candidate
    if git_dir is None:
        git_dir = os.path.join(work, "git", repo.replace("/", "+") + ".git")
        if not os.path.isdir(git_dir):
            subprocess.run(
                ["git", "clone", "--bare", "--filter=blob:none", f"https://github.com/{repo}.git", git_dir],
                check=True,
            )
    partial = folder + ".part"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    # The sources and property lists only (what the audit reads: BT014 reads BGTaskSchedulerPermittedIdentifiers),
    # blob by blob: a mirror may lack large binaries, which would stop `git archive` before it wrote anything.
    listing = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", commit], capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")
    sources = []
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, blob = meta.split()
        if kind == "blob" and mode != "120000" and os.path.splitext(path)[1] in (".swift", ".m", ".mm", ".h", ".plist"):
            sources.append((blob, path))
    batch = subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        input="".join(blob + "\n" for blob, _ in sources).encode(), capture_output=True,
    ).stdout
    offset = 0
    for blob, path in sources:
        end = batch.index(b"\n", offset)
        header = batch[offset:end].split()
        offset = end + 1
        if len(header) < 3 or header[1] != b"blob":  # missing from the mirror
            continue
        size = int(header[2])
        target = os.path.join(partial, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(batch[offset:offset + size])
        offset += size + 1
    os.rename(partial, folder)
    return folder


def assigned_variable(folder, row):
    """The variable the site's begin is assigned to (`self.task = [app begin…` → `task`), if any."""
    try:
        with open(os.path.join(folder, row["path"]), encoding="utf-8", errors="replace") as handle:
            lines = handle.read().split("\n")
    except OSError:
        return None
    text = lines[row["line"] - 1] if 0 < row["line"] <= len(lines) else ""
    match = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=\s*[^=]", text)
    if not match or "beginBackgroundTask" not in text[match.end() - 1:] and "begin" not in text:
        return None
    return match.group(1).lstrip("_") or None


def audit(bgtask, folder, extra=()):
    result = subprocess.run(
        [bgtask] + ([] if os.path.basename(bgtask) == "bgtask-audit" else ["audit"]) + ["--format", "json", "--fail-on", "never"]
        + list(extra) + ["."],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        sys.exit(f"bgtask audit failed in {folder}: {result.stderr}")
    findings = json.loads(result.stdout)["findings"]
    for finding in findings:
        finding["path"] = os.path.normpath(finding["path"])
    return findings


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bgtask", required=True, help="the bgtask-audit binary to score (or a bgtask beside it)")
    parser.add_argument("--work", required=True, help="a folder outside the project for checkouts")
    parser.add_argument("--mirrors", help="a folder of bare mirrors, OWNER+NAME/repo")
    parser.add_argument(
        "--index", action="append",
        help="an index file, or a folder of them (the frozen test set: test-set/); repeatable; default index.tsv")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--audit-arg", action="append", default=[],
        help="an argument passed to the audit (repeatable): --audit-arg=--engine --audit-arg=model")
    parser.add_argument(
        "--unjudged-tsv", help="write the findings no row judges to this file, as `finding` rows with the verdict `?` "
        "for a judge to fill in (true:, false: or debatable:, and the reason)")
    options = parser.parse_args()
    bgtask = os.path.abspath(options.bgtask)
    os.makedirs(options.work, exist_ok=True)
    rows = []
    for index in options.index or [os.path.join(HERE, "index.tsv")]:
        paths = sorted(os.path.join(index, name) for name in os.listdir(index) if name.endswith(".tsv")) \
            if os.path.isdir(index) else [index]
        for path in paths:
            rows += read_index(path)

    cache = {}

    def findings_at(repo, commit):
        key = (repo, commit)
        if key not in cache:
            cache[key] = audit(bgtask, checkout(repo, commit, options.work, options.mirrors), options.audit_arg)
        return cache[key]

    # Recall over labelled risky sites; false findings at labelled safe sites.
    expected = found = 0
    safe_sites = safe_clean = 0
    test_sites = test_clean = 0
    misses = []
    by_rule = collections.Counter()
    found_by_rule = collections.Counter()
    site_repos = set()
    for row in rows:
        if row["kind"] != "site":
            continue
        site_repos.add(row["repo"])
        findings = [f for f in findings_at(row["repo"], row["commit"]) if f["path"] == os.path.normpath(row["path"])]
        near = [f for f in findings if abs(f["line"] - row["line"]) <= NEAR]
        functions = {f["function"] for f in near if f["function"]}
        variable = assigned_variable(checkout(row["repo"], row["commit"], options.work, options.mirrors), row)
        nearby = [
            f
            for f in findings
            if abs(f["line"] - row["line"]) <= NEAR
            or f["function"] in functions
            or (variable and re.search(r"`(?:[^`]*[^A-Za-z0-9_])?_*" + re.escape(variable) + r"`", f["message"]))
            or re.search(rf"\bline {row['line']}: (?:begins|registers|performs)\b", f["message"])
        ]
        rules = {f["rule"] for f in nearby}
        if row["labels"] in ("safe", "test"):
            # Correct code, or test code (a mock, a stub): no defect finding expected.
            extra = sorted(rules - {"BT001", "BT002"})
            if extra:
                misses.append(
                    f"{row['where']} {row['labels']} site has {','.join(extra)}: {row['repo']} {row['path']}:{row['line']}")
            if row["labels"] == "safe":
                safe_sites += 1
                safe_clean += 0 if extra else 1
            else:
                test_sites += 1
                test_clean += 0 if extra else 1
            continue
        for rule in row["labels"].split(","):
            expected += 1
            by_rule[rule] += 1
            if rule in rules:
                found += 1
                found_by_rule[rule] += 1
            else:
                misses.append(
                    f"{row['where']} missed {rule}: {row['repo']} {row['path']}:{row['line']} — {row['reason']}"
                )

    # Precision over whole repositories.
    judged = {}
    for row in rows:
        if row["kind"] == "finding":
            verdict, _, rule = row["labels"].partition(":")
            judged[(row["repo"], os.path.normpath(row["path"]), row["line"], rule)] = (verdict, row)
    true = false = unjudged = debatable = 0
    rule_true = collections.Counter()
    rule_false = collections.Counter()
    unjudged_rows = []
    defect_true = defect_false = 0
    lines = 0
    unjudged_list = []
    false_list = []
    wholes = [row for row in rows if row["kind"] == "whole"]
    for row in wholes:
        for finding in findings_at(row["repo"], row["commit"]):
            key = (row["repo"], finding["path"], finding["line"], finding["rule"])
            verdict = judged.get(key)
            text = f"{row['repo']} {finding['path']}:{finding['line']} [{finding['rule']}] {finding['message'][:140]}"
            if verdict is None or verdict[0] == "?":
                unjudged += 1
                unjudged_list.append(text)
                unjudged_rows.append("\t".join([
                    "finding", row["repo"], row["commit"], finding["path"], str(finding["line"]),
                    "?:" + finding["rule"], finding["message"].replace("\t", " ").replace("\n", " ")]))
            elif verdict[0] == "true":
                true += 1
                rule_true[finding["rule"]] += 1
                defect_true += finding["rule"] not in ("BT001", "BT002")
            elif verdict[0] == "debatable":
                debatable += 1
            else:
                false += 1
                rule_false[finding["rule"]] += 1
                defect_false += finding["rule"] not in ("BT001", "BT002")
                false_list.append(text + f" — judged false: {verdict[1]['reason']}")

    print(f"Corpus: {len(site_repos | {row['repo'] for row in wholes})} repositories, "
          f"{sum(1 for row in rows if row['kind'] == 'site')} labelled sites, {len(wholes)} whole audits")
    recall = found / expected if expected else 0
    print(f"Recall at labelled risky sites: {found}/{expected} = {recall:.2f}")
    for rule in sorted(by_rule):
        print(f"  {rule}: {found_by_rule[rule]}/{by_rule[rule]}")
    print(f"Labelled safe sites without a finding beyond BT001/BT002: {safe_clean}/{safe_sites}")
    if test_sites:
        print(f"Labelled test-code sites without a finding beyond BT001/BT002: {test_clean}/{test_sites}")
    total = true + false
    precision = true / total if total else 0
    print(f"Precision on whole repositories: {true}/{total} judged true = {precision:.1%}"
          + (f", {debatable} debatable left out" if debatable else "")
          + (f" ({unjudged} findings not yet judged)" if unjudged else ""))
    defects = defect_true + defect_false
    print(f"  defect rules BT003 and up: {defect_true}/{defects} = {(defect_true / defects if defects else 0):.1%}")
    for rule in sorted(set(rule_true) | set(rule_false)):
        judged_count = rule_true[rule] + rule_false[rule]
        print(f"  {rule}: {rule_true[rule]}/{judged_count} judged true")
    if options.unjudged_tsv:
        with open(options.unjudged_tsv, "w", encoding="utf-8") as handle:
            handle.write("# Findings to judge: replace `?` with true, false or debatable, and the message with the reason.\n")
            handle.write("".join(line + "\n" for line in unjudged_rows))
    if options.verbose:
        for text in misses:
            print("  " + text)
        for text in false_list:
            print("  false: " + text)
    for text in unjudged_list:
        print("  unjudged: " + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
