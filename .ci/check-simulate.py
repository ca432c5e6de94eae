"""Checks `bgtask simulate --format json` (read from standard input) against what iOS does."""

import json
import sys

# The exception code iOS gives each naive flow.
EXPECTED_NAIVE_CODES = {
    "property-overwrite": "0x8badf00d",
    "missing-handler": "0x8badf00d",
    "late-end": "0x8badf00d",
    "early-return": "0x8badf00d",
    "capture-before-assignment": "0x8badf00d",
    "double-end": "0x8badf00d",
    "too-many-tasks": "0xbada5e47",
    "slow-handler": "0x8badf00d",
    "extension-activity": "0x8badf00d",
    "third-party-sdk": "0x8badf00d",
    "lock-at-suspension": "0xdead10cc",
    # Begun in the expiration handler, the save's task is refused; unchecked, it takes its lock anyway.
    "refused-in-background": "0xdead10cc",
    "refresh-never-completes": "0x8badf00d",
    "processing-expiry-ignored": "0xdead10cc",
    # The framework's exception (SIGABRT) when iOS launches the app for an identifier with no launch handler.
    "unregistered-launch": "SIGABRT",
    # The framework's exception for a launch handler registered after the app finished launching.
    "late-registration": "SIGABRT",
}

# Scenarios whose naive flow is not killed but loses the person's job to the system's expiry.
EXPECTED_NAIVE_EXPIRED = {"continued-stall"}

# Scenarios of code the app cannot change: variant -> (outcome, code). Only the tracer's rescue saves
# the app from a third-party SDK's leak; the tracer alone names it and the app is still killed.
EXPECTED_OTHER = {
    "third-party-sdk": {"traced": ("terminated", "0x8badf00d"), "traced-rescue": ("clean", None)},
}

# Scenarios whose naive flow is warned, not terminated, with the variants that escape the warning:
# a 45 s upload begun in the foreground draws iOS's "created over 30 seconds ago" warning with every
# face that raises its assertion at begin; the lazy manager raises none in the foreground, and the
# coalescing manager hands its shared assertion over before it is 30 s old.
EXPECTED_WARNED = {
    "foreground-upload": {"clean": {"manager-coalesced", "manager-lazy"}},
    # A queue's check-then-end lands after the handler ended the task: iOS's "Can't end" message.
    "check-then-end-race": {"clean": {"correct", "safe", "scoped", "closure", "manager", "manager-coalesced", "manager-lazy"}},
    # Under the debugger the watchdog never kills: the leak only warns.
    "debugger-run": {"clean": {"correct", "safe", "scoped", "closure", "manager", "manager-coalesced", "manager-lazy"}},
}

rows = json.load(sys.stdin)
problems = []
seen = set()
for row in rows:
    if set(row) != {"scenario", "variant", "outcome", "code", "time"}:
        problems.append(f"unexpected keys {sorted(row)}")
        continue
    if not isinstance(row["time"], (int, float)):
        problems.append(f"{row['scenario']}/{row['variant']}: time is not a number")
    seen.add(row["scenario"])
    if row["scenario"] in EXPECTED_WARNED:
        want = "clean" if row["variant"] in EXPECTED_WARNED[row["scenario"]]["clean"] else "warned"
        if row["outcome"] != want or row["code"] is not None:
            problems.append(f"{row['scenario']}/{row['variant']}: {row['outcome']} {row['code']}, want {want}")
    elif row["scenario"] in EXPECTED_OTHER and row["variant"] != "naive":
        want = EXPECTED_OTHER[row["scenario"]].get(row["variant"])
        if (row["outcome"], row["code"]) != want:
            problems.append(f"{row['scenario']}/{row['variant']}: {row['outcome']} {row['code']}, want {want}")
    elif row["variant"] == "naive" and row["scenario"] in EXPECTED_NAIVE_EXPIRED:
        if row["outcome"] != "expired" or row["code"] is not None:
            problems.append(f"{row['scenario']}/naive: {row['outcome']} {row['code']}, want expired")
    elif row["variant"] == "naive":
        want = EXPECTED_NAIVE_CODES.get(row["scenario"])
        if row["outcome"] != "terminated" or row["code"] != want:
            problems.append(f"{row['scenario']}/naive: {row['outcome']} {row['code']}, want terminated {want}")
    elif row["outcome"] != "clean" or row["code"] is not None:
        problems.append(f"{row['scenario']}/{row['variant']}: {row['outcome']} {row['code']}, want clean")

missing = (set(EXPECTED_NAIVE_CODES) | set(EXPECTED_WARNED) | EXPECTED_NAIVE_EXPIRED) - seen
if missing:
    problems.append(f"scenarios missing from the output: {sorted(missing)}")
for problem in problems:
    print(problem)
print(f"{len(rows)} rows checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
